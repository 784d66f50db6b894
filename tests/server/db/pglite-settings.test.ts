import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { automaticSharedBuffersMb, databaseFolderBytes } from '../../../src-server/db/pglite-settings';

const MB = 1024 * 1024;

describe("PGlite's shared buffer pool, sized by the database", () => {
  it('takes a quarter of the database in 16 MB steps, from 16 MB to 256 MB', () => {
    expect(automaticSharedBuffersMb(0)).toBe(16);
    expect(automaticSharedBuffersMb(64 * MB)).toBe(16);
    expect(automaticSharedBuffersMb(64 * MB + 1)).toBe(32);
    expect(automaticSharedBuffersMb(400 * MB)).toBe(112);
    expect(automaticSharedBuffersMb(1024 * MB)).toBe(256);
    expect(automaticSharedBuffersMb(50 * 1024 * MB)).toBe(256);
  });

  describe('databaseFolderBytes', () => {
    const folders: string[] = [];
    afterEach(() => {
      for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
    });

    it("counts the files under base/ and global/, nested too, and nothing else (the write-ahead log is not the database's size)", () => {
      const folder = mkdtempSync(join(tmpdir(), 'portal-pglite-size-'));
      folders.push(folder);
      mkdirSync(join(folder, 'base', '5'), { recursive: true });
      mkdirSync(join(folder, 'global'));
      mkdirSync(join(folder, 'pg_wal'));
      writeFileSync(join(folder, 'base', '5', '16384'), Buffer.alloc(3000));
      writeFileSync(join(folder, 'base', '5', '16384_fsm'), Buffer.alloc(200));
      writeFileSync(join(folder, 'global', '1262'), Buffer.alloc(40));
      writeFileSync(join(folder, 'pg_wal', '000000010000000000000001'), Buffer.alloc(5000));
      expect(databaseFolderBytes(folder)).toBe(3240);
    });

    it('answers 0 for a folder with no database in it yet', () => {
      const folder = mkdtempSync(join(tmpdir(), 'portal-pglite-size-'));
      folders.push(folder);
      expect(databaseFolderBytes(folder)).toBe(0);
    });
  });
});
