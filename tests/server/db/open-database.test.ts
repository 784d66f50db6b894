import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LOCK_FILE_NAME } from '../../../src-server/db/data-dir-lock';
import type { Database } from '../../../src-server/db/connection';
import { DataDirCorruptError, openPgliteDataDir, PGLITE_DIR_NAME } from '../../../src-server/db/open-database';
import { openPgliteDataDirInThread } from '../../../src-server/db/pglite-thread/client';

// The server opens DATA_DIR's database in a thread of its own (db/pglite-thread); the same rules hold there.
describe.each([
  { where: 'in this thread', openPgliteDataDir },
  { where: "in the database's own thread", openPgliteDataDir: openPgliteDataDirInThread },
])('openPgliteDataDir $where', ({ openPgliteDataDir }) => {
  let dir = '';
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'portal-open-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses a half-initialised database folder loudly and leaves it exactly as it was', async () => {
    const target = join(dir, PGLITE_DIR_NAME);
    mkdirSync(join(target, 'base'), { recursive: true });
    writeFileSync(join(target, 'postgresql.conf'), '# partial');
    const error = await openPgliteDataDir(dir).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DataDirCorruptError);
    expect(String(error)).toMatch(/is not a complete database \(PG_VERSION is missing\)\. It was left untouched/);
    expect(readdirSync(target).sort()).toEqual(['base', 'postgresql.conf']);
    // The lock is released so the next attempt is not told another server is running.
    expect(existsSync(join(dir, LOCK_FILE_NAME))).toBe(false);
  });

  it('refuses a file where the database folder should be', async () => {
    writeFileSync(join(dir, PGLITE_DIR_NAME), 'not a folder');
    await expect(openPgliteDataDir(dir)).rejects.toThrow(DataDirCorruptError);
  });

  it('initialises a new database in a temporary folder, renames it into place and keeps data across a reopen', async () => {
    mkdirSync(join(dir, 'pglite.init-99999'));
    writeFileSync(join(dir, 'pglite.init-99999', 'leftover'), 'from a crashed first start');
    const first = await openPgliteDataDir(dir);
    expect(readdirSync(dir).sort()).toEqual([LOCK_FILE_NAME, PGLITE_DIR_NAME].sort());
    await first.exec("create table kept (value text); insert into kept values ('hello');");
    await first.close();
    expect(existsSync(join(dir, LOCK_FILE_NAME))).toBe(false);
    const second = await openPgliteDataDir(dir);
    expect(await second.query('select value from kept')).toEqual([{ value: 'hello' }]);
    await second.close();
  });

  it('gives a new database a 16 MB pool, a grown one a quarter of its size from its next start, and takes a size asked for', async () => {
    const pool = async (db: Database) => (await db.query<{ shared_buffers: string }>('show shared_buffers'))[0]?.shared_buffers;
    const first = await openPgliteDataDir(dir);
    expect(await pool(first)).toBe('16MB');
    // About 80 MB of rows, stored as they are (a row under 2 kB is never compressed).
    await first.exec("create table big (filler text); insert into big select repeat('x', 1500) from generate_series(1, 52000)");
    await first.close();
    const grown = await openPgliteDataDir(dir);
    expect(await pool(grown)).toBe('32MB');
    await grown.close();
    const asked = await openPgliteDataDir(dir, 48);
    expect(await pool(asked)).toBe('48MB');
    await asked.exec('drop table big');
    await asked.close();
    // A size asked for is not written down: the database's own setting stands until an automatic start closes.
    const again = await openPgliteDataDir(dir);
    expect(await pool(again)).toBe('32MB');
    await again.close();
    const shrunk = await openPgliteDataDir(dir);
    expect(await pool(shrunk)).toBe('16MB');
    await shrunk.close();
  });
});
