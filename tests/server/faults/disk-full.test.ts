import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createPglite } from '../../../src-server/db/connection';
import { PGLITE_DIR_NAME } from '../../../src-server/db/open-database';
import { STORAGE_KEY_PATTERN } from '../../../src-server/platform/storage/types';
import { createWebRoot } from '../helpers/build-server';
import { pdfOf, signIn, startedOn, startUpload } from '../helpers/real-uploads';
import type { RunningServer } from '../helpers/spawned-server';
import { appointmentBase, LIAM } from '../modules/attachments/attachments-kit';

/**
 * A full disk where documents are kept (docs/rules/attachments.md#storage): the real server on
 * PGlite with folder storage, its work folder or its files folder on a small tmpfs of its own.
 * An upload that does not fit is refused with 507 and words a patient can act on; nothing is
 * half-written (no row, no stored or temporary file, no work file); once there is room again the
 * same server takes uploads. Mounting a tmpfs needs root: elsewhere the test says it is skipped.
 */

const running: RunningServer[] = [];
const mounts: string[] = [];
const folders: string[] = [];
const webRoot = createWebRoot();

function canMount(): string | null {
  if (process.getuid?.() !== 0) return 'mounting a small tmpfs needs root';
  const probe = mkdtempSync(join(tmpdir(), 'portal-mount-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', probe], { stdio: 'ignore' });
    execFileSync('umount', [probe], { stdio: 'ignore' });
    return null;
  } catch {
    return 'this machine does not let the test mount a tmpfs';
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}
const skipReason = canMount();

/** Mounts a tmpfs of `bytes` at `folder`, keeping what the folder held. */
function mountSmallDisk(folder: string, bytes: number): void {
  const kept = `${folder}.kept`;
  if (existsSync(folder)) cpSync(folder, kept, { recursive: true });
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${bytes},mode=0700`, 'tmpfs', folder]);
  mounts.push(folder);
  if (existsSync(kept)) {
    cpSync(kept, folder, { recursive: true });
    rmSync(kept, { recursive: true, force: true });
  }
}

afterEach(() => {
  for (const server of running.splice(0)) if (server.child.exitCode === null) server.child.kill('SIGKILL');
});
afterAll(() => {
  for (const folder of mounts.splice(0)) execFileSync('umount', ['-l', folder]);
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
  webRoot.remove();
});

const started = (dataDir: string): Promise<{ server: RunningServer; port: number }> => startedOn(dataDir, webRoot.dir, running);

async function stopped(server: RunningServer): Promise<void> {
  server.child.kill('SIGTERM');
  expect(await server.exit).toBe(0);
}

/** A data folder seeded by a first start, with one-time codes off so the patient signs in at once. */
async function seededDataDir(): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-disk-full-'));
  folders.push(dataDir);
  const seeding = await started(dataDir);
  await stopped(seeding.server);
  const pglite = await createPglite({ dataDir: join(dataDir, PGLITE_DIR_NAME) });
  try {
    await pglite.query(`update provider set app_config = jsonb_set(app_config, '{otpRequired}', 'false'::jsonb)`);
  } finally {
    await pglite.close();
  }
  return dataDir;
}

async function attachmentCount(dataDir: string): Promise<number> {
  const pglite = await createPglite({ dataDir: join(dataDir, PGLITE_DIR_NAME) });
  try {
    return (await pglite.query<{ count: number }>('select count(*)::int as count from attachment')).rows[0]!.count;
  } finally {
    await pglite.close();
  }
}

/** Files in the storage folder that are not stored documents (temporaries), and every work file. */
function halfWritten(dataDir: string): string[] {
  const files = join(dataDir, 'files');
  const work = join(dataDir, 'upload-work');
  return [
    ...(existsSync(files) ? readdirSync(files).filter((name) => !STORAGE_KEY_PATTERN.test(name) && name !== 'lost+found') : []),
    ...(existsSync(work) ? readdirSync(work) : []),
  ];
}

async function upload(port: number, cookie: string, bytes: number): Promise<{ status: number }> {
  const sending = startUpload(port, cookie, pdfOf(bytes), 1);
  sending.finish();
  return { status: await sending.done };
}

async function refusalMessage(port: number, cookie: string, bytes: number): Promise<{ status: number; body: unknown }> {
  const boundary = 'diskfull0123456789';
  const file = pdfOf(bytes);
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="referral.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const response = await fetch(`http://127.0.0.1:${port}${appointmentBase(LIAM.bookingKey)}`, {
    method: 'POST',
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, cookie, 'x-requested-with': 'XMLHttpRequest' },
    body,
  });
  return { status: response.status, body: await response.json() };
}

describe.skipIf(skipReason !== null)(
  `a full disk under uploads (the real server, PGlite, folder storage)${skipReason ? ` — skipped: ${skipReason}` : ''}`,
  () => {
    it('refuses an upload that does not fit in the work folder with 507, keeps nothing of it, and takes one that fits', async () => {
      const dataDir = await seededDataDir();
      mountSmallDisk(join(dataDir, 'upload-work'), 1024 * 1024);
      const { server, port } = await started(dataDir);
      const cookie = await signIn(port);
      const before = await attachmentCount(dataDir);

      const refused = await refusalMessage(port, cookie, 3 * 1024 * 1024);
      expect(refused.status).toBe(507);
      expect(refused.body).toMatchObject({
        code: 'insufficient_storage',
        message: expect.stringMatching(/storage is full\. Nothing was saved/),
        details: { reason: 'disk_full' },
      });
      expect(halfWritten(dataDir)).toEqual([]);

      // The refused upload's bytes are gone from the small disk: one that fits is taken.
      expect((await upload(port, cookie, 200 * 1024)).status).toBe(201);
      await stopped(server);
      expect(await attachmentCount(dataDir)).toBe(before + 1);
      expect(halfWritten(dataDir)).toEqual([]);
    }, 180_000);

    it('refuses an upload whose file does not fit in the storage folder (another disk) with 507, and stores nothing of it', async () => {
      const dataDir = await seededDataDir();
      // The storage folder holds the demo results' PDFs; 1 MB more is left on its disk.
      mountSmallDisk(join(dataDir, 'files'), 4 * 1024 * 1024);
      const used = Number(
        execFileSync('du', ['-sb', join(dataDir, 'files')])
          .toString()
          .split('\t')[0],
      );
      expect(used).toBeLessThan(3 * 1024 * 1024);
      const { server, port } = await started(dataDir);
      const cookie = await signIn(port);
      const storedBefore = readdirSync(join(dataDir, 'files')).sort();
      const before = await attachmentCount(dataDir);

      const refused = await refusalMessage(port, cookie, 4 * 1024 * 1024 - used + 512 * 1024);
      expect(refused.status).toBe(507);
      expect(refused.body).toMatchObject({ code: 'insufficient_storage' });
      expect(readdirSync(join(dataDir, 'files')).sort()).toEqual(storedBefore);
      expect(halfWritten(dataDir)).toEqual([]);

      expect((await upload(port, cookie, 100 * 1024)).status).toBe(201);
      await stopped(server);
      expect(await attachmentCount(dataDir)).toBe(before + 1);
      expect(halfWritten(dataDir)).toEqual([]);
    }, 180_000);
  },
);
