import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createPglite } from '../../../../src-server/db/connection';
import { PGLITE_DIR_NAME } from '../../../../src-server/db/open-database';
import { STORAGE_KEY_PATTERN } from '../../../../src-server/platform/storage/types';
import { createWebRoot } from '../../helpers/build-server';
import type { RunningServer } from '../../helpers/spawned-server';
import { pdfOf, signIn, startedOn, startUpload } from '../../helpers/real-uploads';
import { appointmentBase, LIAM } from './attachments-kit';

/**
 * kill -9 while uploads are in flight (docs/rules/attachments.md#storage): the real server (`npm start`'s entry point, PGlite
 * in DATA_DIR, folder storage) is killed with SIGKILL while uploads are at every stage: mid-body,
 * being checked, being stored, having their rows written. Rows are written only after their file
 * is stored and fsynced, so right after the crash no row lacks its file; the restarted server
 * (the only owner of DATA_DIR) then deletes what the crash left: stored files no row names, and
 * its work files. Nothing else is touched: the uploads that finished are all still there.
 */

const FILE_BYTES = 3 * 1024 * 1024;
const running: RunningServer[] = [];
const folders: string[] = [];
const webRoot = createWebRoot();

afterEach(() => {
  for (const server of running.splice(0)) if (server.child.exitCode === null) server.child.kill('SIGKILL');
});
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
  webRoot.remove();
});

function storedKeys(dataDir: string): string[] {
  const folder = join(dataDir, 'files');
  return existsSync(folder) ? readdirSync(folder).filter((name) => STORAGE_KEY_PATTERN.test(name)) : [];
}

function leftovers(dataDir: string): string[] {
  const folder = join(dataDir, 'files');
  const temporaries = existsSync(folder) ? readdirSync(folder).filter((name) => !STORAGE_KEY_PATTERN.test(name)) : [];
  const work = join(dataDir, 'upload-work');
  return [...temporaries, ...(existsSync(work) ? readdirSync(work) : [])];
}

/** The server's own database, opened while no server runs. */
async function withDatabase<T>(dataDir: string, use: (pglite: PGlite) => Promise<T>): Promise<T> {
  const pglite = await createPglite({ dataDir: join(dataDir, PGLITE_DIR_NAME) });
  try {
    return await use(pglite);
  } finally {
    await pglite.close();
  }
}

/** The storage keys the attachment rows name. */
/** Every storage key a row names: the attachments', and the demo results' report PDFs (the storage is shared). */
async function rowKeys(dataDir: string): Promise<string[]> {
  const result = await withDatabase(dataDir, (pglite) =>
    pglite.query<{ storage_key: string }>(
      'select storage_key from attachment union all select pdf_key from result_report order by storage_key',
    ),
  );
  return result.rows.map((row) => row.storage_key);
}

const started = (dataDir: string): Promise<{ server: RunningServer; port: number }> => startedOn(dataDir, webRoot.dir, running);

describe('kill -9 during uploads (the real server, PGlite and folder storage)', () => {
  it('leaves no row without its file, and the restarted server removes every file no row names', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'portal-crash-'));
    folders.push(dataDir);
    const file = pdfOf(FILE_BYTES);

    // The first start seeds the demo provider; patients then sign in with the date of birth alone.
    const seeding = await started(dataDir);
    seeding.server.child.kill('SIGTERM');
    expect(await seeding.server.exit).toBe(0);
    await withDatabase(dataDir, (pglite) =>
      pglite.query(`update provider set app_config = jsonb_set(app_config, '{otpRequired}', 'false'::jsonb)`),
    );

    const first = await started(dataDir);
    const cookie = await signIn(first.port);
    // Two uploads that finish before the crash: they must survive it whole.
    for (let index = 0; index < 2; index += 1) {
      const upload = startUpload(first.port, cookie, file, 1);
      upload.finish();
      expect(await upload.done).toBe(201);
    }

    // Four in flight at every stage: two stopped mid-body, two sent whole and being checked and stored.
    const midBody = [startUpload(first.port, cookie, file, 0.3), startUpload(first.port, cookie, file, 0.7)];
    const whole = [startUpload(first.port, cookie, file, 0.5), startUpload(first.port, cookie, file, 0.5)];
    await new Promise((resolve) => setTimeout(resolve, 200));
    for (const upload of whole) upload.finish();
    // The first of them answers (the others are still at work) and the server dies at once.
    await Promise.race(whole.map((upload) => upload.done));
    first.server.child.kill('SIGKILL');
    await first.server.exit;
    const answered = await Promise.all([...midBody, ...whole].map((upload) => upload.done));
    expect(answered.slice(0, 2)).toEqual([0, 0]);
    const created = 2 + answered.filter((status) => status === 201).length;

    // Right after the crash: every row has its file (a row is written only after its file is stored).
    const rowsAfterCrash = await rowKeys(dataDir);
    expect(rowsAfterCrash.length).toBeGreaterThanOrEqual(created);
    const filesAfterCrash = storedKeys(dataDir);
    for (const key of rowsAfterCrash) expect(filesAfterCrash).toContain(key);

    // The restart clears what the crash left; nothing that has a row goes.
    const second = await started(dataDir);
    const listed = await fetch(`http://127.0.0.1:${second.port}${appointmentBase(LIAM.bookingKey)}`, {
      headers: { cookie: await signIn(second.port), 'x-requested-with': 'XMLHttpRequest' },
    });
    expect(listed.status).toBe(200);
    second.server.child.kill('SIGTERM');
    expect(await second.server.exit).toBe(0);

    const rows = await rowKeys(dataDir);
    expect(rows).toEqual(rowsAfterCrash);
    expect(storedKeys(dataDir).sort()).toEqual(rows);
    expect(leftovers(dataDir)).toEqual([]);
  }, 120_000);
});
