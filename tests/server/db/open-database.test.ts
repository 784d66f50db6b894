import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LOCK_FILE_NAME } from '../../../src-server/db/data-dir-lock';
import { DataDirCorruptError, openPgliteDataDir, PGLITE_DIR_NAME } from '../../../src-server/db/open-database';

describe('openPgliteDataDir', () => {
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

  it('opens a small database with a 16 MB shared buffer pool, and with the size asked for', async () => {
    const byDefault = await openPgliteDataDir(dir);
    expect(await byDefault.query('show shared_buffers')).toEqual([{ shared_buffers: '16MB' }]);
    await byDefault.close();
    const sized = await openPgliteDataDir(dir, 48);
    expect(await sized.query('show shared_buffers')).toEqual([{ shared_buffers: '48MB' }]);
    await sized.close();
  });
});
