import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DataDirCorruptError } from './data-dir-errors';
import { acquireDataDirLock } from './data-dir-lock';
import { createPglite, pgliteDatabase, type Database } from './connection';
import { fitSharedBuffersToSize, PGLITE_SHARED_BUFFERS_MIN_MB } from './pglite-settings';

/** The embedded database lives here inside DATA_DIR. */
export const PGLITE_DIR_NAME = 'pglite';
const INIT_DIR_PREFIX = 'pglite.init-';

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Opens the embedded PGlite in dataDir/pglite under the DATA_DIR lock.
 *
 * A new database is initialised in a temporary folder and renamed into place only once initdb
 * has finished, so a crash during the first start can never leave a half-initialised
 * dataDir/pglite behind. An existing folder that is not a complete database stops the start
 * with a clear message and is left exactly as it is (docs/rules/security.md#reliability).
 */
export async function openPgliteDataDir(dataDir: string, sharedBuffersMb: number | null = null): Promise<Database> {
  const lock = acquireDataDirLock(dataDir);
  try {
    const target = join(dataDir, PGLITE_DIR_NAME);
    // Leftovers of an interrupted first start never became the database; we hold the lock, so
    // no other process is initialising them right now.
    for (const name of readdirSync(dataDir)) {
      if (name.startsWith(INIT_DIR_PREFIX)) rmSync(join(dataDir, name), { recursive: true, force: true });
    }

    const isFresh = !existsSync(target) || (statSync(target).isDirectory() && readdirSync(target).length === 0);
    if (!isFresh) {
      if (!statSync(target).isDirectory() || !existsSync(join(target, 'PG_VERSION'))) {
        throw new DataDirCorruptError(
          `${target} is not a complete database (PG_VERSION is missing). It was left untouched: restore it from a backup, or move it away to start with an empty database.`,
        );
      }
    } else {
      rmSync(target, { recursive: true, force: true });
      const initDir = join(dataDir, `${INIT_DIR_PREFIX}${process.pid}`);
      mkdirSync(initDir, { recursive: true });
      const fresh = await createPglite({ dataDir: initDir });
      // A new database starts with the smallest pool, not initdb's 128 MB (db/pglite-settings.ts).
      await fitSharedBuffersToSize(pgliteDatabase(fresh), PGLITE_SHARED_BUFFERS_MIN_MB);
      await fresh.close();
      renameSync(initDir, target);
    }

    let pglite;
    try {
      // The pool the database's own configuration names, unless PGLITE_SHARED_BUFFERS_MB sets it.
      pglite = await createPglite({ dataDir: target, sharedBuffersMb });
      await pglite.query('select 1');
    } catch (error) {
      throw new DataDirCorruptError(
        `Cannot open the embedded database in ${target}: ${reasonOf(error)}. It was left untouched: restore it from a backup, or move it away to start with an empty database.`,
      );
    }
    const database = pgliteDatabase(pglite, () => lock.release());
    if (sharedBuffersMb !== null) return database;
    return {
      ...database,
      // The pool follows the database's size from its next start on (db/pglite-settings.ts).
      async close() {
        await fitSharedBuffersToSize(database).catch(() => undefined);
        await database.close();
      },
    };
  } catch (error) {
    lock.release();
    throw error;
  }
}
