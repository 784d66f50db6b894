import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBackup } from '../../../src-server/db/backup/backup';
import { BackupInvalidError } from '../../../src-server/db/backup/manifest';
import { restoreBackup, RestoreRefusedError } from '../../../src-server/db/backup/restore';
import { migrate } from '../../../src-server/db/migrate';
import { buildTestServer, testConfig } from '../helpers/build-server';
import { backends } from '../helpers/database';
import {
  appointmentsByKey,
  attachmentKeys,
  bookThroughTheApi,
  fingerprint,
  newPlace,
  olderMigrations,
  sha256,
  type Place,
} from './backup-kit';

// npm run backup / restore (docs/operations.md#backups): a restored backup holds every booking
// with its details and every stored file, and a refused restore changes nothing.

const NOW = new Date('2026-03-10T02:00:00.000Z');

describe.each(backends())('backup and restore on %s', (backend) => {
  const places: Place[] = [];
  const place = async (): Promise<Place> => {
    const made = await newPlace(backend);
    places.push(made);
    return made;
  };
  let source: Place;
  let archive = '';
  let bookingKeys: string[];
  let before: Map<string, string>;

  beforeAll(async () => {
    source = await place();
    bookingKeys = await bookThroughTheApi(source, 3);
    const db = await source.open();
    before = await appointmentsByKey(db);
    await db.close();
    archive = join(source.config.dataDir, '..', `${source.config.dataDir.split('/').pop()}-backup.tar`);
    await createBackup({ config: source.config, output: archive, now: NOW, writtenBy: 'test' });
  });
  afterAll(async () => {
    if (archive !== '') rmSync(archive, { force: true });
    for (const made of places) await made.remove();
  });

  it('restores into a fresh place every booking, by its key and with the same details, and every stored file', async () => {
    const target = await place();
    const summary = await restoreBackup({ config: target.config, archive, force: false });
    expect(summary.replaced).toEqual([]);
    const storedFiles = fingerprint(join(source.config.dataDir, 'files'));
    expect(summary.manifest.fileCount).toBe(Object.keys(storedFiles).length);
    expect(fingerprint(join(target.config.dataDir, 'files'))).toEqual(storedFiles);
    expect(summary.manifest).toMatchObject({ engine: backend, storage: 'folder', createdAt: NOW.toISOString() });

    const db = await target.open();
    try {
      expect(await migrate(db)).toEqual([]);
      const after = await appointmentsByKey(db);
      for (const key of bookingKeys) expect(after.get(key), key).toBeDefined();
      expect(after).toEqual(before);
      const keys = await attachmentKeys(db);
      expect(keys.length).toBeGreaterThanOrEqual(1); // the referral uploaded while booking
      for (const key of keys) {
        const original = readFileSync(join(source.config.dataDir, 'files', key));
        expect(sha256(readFileSync(join(target.config.dataDir, 'files', key)))).toBe(sha256(original));
      }
      // The server starts on it and is ready: database answering, every migration applied.
      const server = await buildTestServer({ db, config: testConfig({ DATA_DIR: target.config.dataDir }) });
      try {
        const ready = await server.app.inject({ method: 'GET', url: '/api/health/ready' });
        expect(ready.statusCode, ready.body).toBe(200);
      } finally {
        await server.close();
      }
    } finally {
      await db.close();
    }
  });

  it('brings an older backup up to date: the server applies the newer migrations after the restore', async () => {
    const older = await place();
    const { dir, missing } = olderMigrations(2);
    const db = await older.open();
    await migrate(db, dir);
    await db.close();
    rmSync(dir, { recursive: true, force: true });
    const olderArchive = join(older.config.dataDir, 'older.tar');
    const made = await createBackup({ config: older.config, output: olderArchive, now: NOW, writtenBy: 'test' });
    expect(made.fileCount).toBe(0);

    const target = await place();
    const restored = await restoreBackup({ config: target.config, archive: olderArchive, force: false });
    expect(restored.manifest.schemaVersion).not.toBe(missing.at(-1));
    const reopened = await target.open();
    try {
      expect(await migrate(reopened)).toEqual(missing);
    } finally {
      await reopened.close();
    }
  });

  it('refuses a target that is not empty without --force, and changes nothing', async () => {
    const target = await place();
    await restoreBackup({ config: target.config, archive, force: false });
    const files = fingerprint(join(target.config.dataDir, 'files'));
    const database = backend === 'pglite' ? fingerprint(join(target.config.dataDir, 'pglite')) : null;

    const refused = restoreBackup({ config: target.config, archive, force: false });
    await expect(refused).rejects.toThrow(RestoreRefusedError);
    await expect(refused).rejects.toThrow(/not empty: it holds .* and [1-9][0-9]* stored files in /);
    expect(fingerprint(join(target.config.dataDir, 'files'))).toEqual(files);
    if (database !== null) expect(fingerprint(join(target.config.dataDir, 'pglite'))).toEqual(database);

    // With --force it replaces them, and says what it replaced.
    const forced = await restoreBackup({ config: target.config, archive, force: true });
    expect(forced.replaced.join('\n')).toMatch(backend === 'pglite' ? /PGlite database in/ : /tables in schema public/);
    const db = await target.open();
    try {
      expect(await appointmentsByKey(db)).toEqual(before);
    } finally {
      await db.close();
    }
  });

  it('refuses a damaged or truncated archive before changing anything, even with --force', async () => {
    const bytes = readFileSync(archive);
    const damaged = Buffer.from(bytes);
    // The middle of the archive lies inside the database part, the largest one.
    const middle = Math.floor(damaged.length / 2);
    damaged[middle] = (damaged[middle] ?? 0) ^ 0xff;
    const damagedPath = `${archive}.damaged`;
    const truncatedPath = `${archive}.truncated`;
    writeFileSync(damagedPath, damaged);
    writeFileSync(truncatedPath, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    try {
      const empty = await place();
      await expect(restoreBackup({ config: empty.config, archive: damagedPath, force: false })).rejects.toThrow(
        /does not match its sha256/,
      );
      await expect(restoreBackup({ config: empty.config, archive: truncatedPath, force: false })).rejects.toThrow(BackupInvalidError);
      expect(fingerprint(empty.config.dataDir)).toEqual({});
      if (backend === 'postgres') {
        const db = await empty.open();
        try {
          expect(await appointmentsByKey(db).catch(() => 'no appointment table')).toBe('no appointment table');
        } finally {
          await db.close();
        }
      }

      const restored = await place();
      await restoreBackup({ config: restored.config, archive, force: false });
      const kept = fingerprint(restored.config.dataDir);
      await expect(restoreBackup({ config: restored.config, archive: damagedPath, force: true })).rejects.toThrow(BackupInvalidError);
      expect(fingerprint(restored.config.dataDir)).toEqual(kept);
      const db = await restored.open();
      try {
        expect(await appointmentsByKey(db)).toEqual(before);
      } finally {
        await db.close();
      }
    } finally {
      rmSync(damagedPath, { force: true });
      rmSync(truncatedPath, { force: true });
    }
  });
});
