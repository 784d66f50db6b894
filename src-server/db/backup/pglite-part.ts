import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { createPglite, pgliteDatabase } from '../connection';
import { createBackupRepository } from './backup-repository';

/**
 * The PGlite database as PGlite's own data-folder dump (a gzipped tar that `PGlite.create({
 * loadDataDir })` loads): the same engine version reads it back exactly, indexes and sequences included.
 */

export interface DatabaseFacts {
  schemaVersion: string | null;
  appointments: number | null;
}

/** The data folder is missing or not a database: nothing to back up. */
export class NothingToBackUpError extends Error {
  constructor(readonly folder: string) {
    super(`There is no database in ${folder} to back up (PG_VERSION is missing). Check DATA_DIR, or DATABASE_URL for PostgreSQL.`);
    this.name = 'NothingToBackUpError';
  }
}

/** Dumps the PGlite folder (opened here: the caller holds the DATA_DIR lock) into target. */
export async function dumpPglite(folder: string, target: string): Promise<DatabaseFacts> {
  if (!existsSync(join(folder, 'PG_VERSION'))) throw new NothingToBackUpError(folder);
  const pglite = await createPglite({ dataDir: folder });
  const db = pgliteDatabase(pglite);
  try {
    const repository = createBackupRepository(db);
    const facts = { schemaVersion: await repository.schemaVersion(), appointments: await repository.appointmentCount() };
    await repository.checkpoint();
    const dump = await pglite.dumpDataDir('gzip');
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, new Uint8Array(await dump.arrayBuffer()));
    return facts;
  } finally {
    await db.close();
  }
}

/**
 * Loads a dump into the new folder target and opens it once, so a dump PGlite cannot read is
 * found before anything is replaced.
 */
export async function loadPglite(dump: string, target: string): Promise<DatabaseFacts> {
  const blob = new Blob([new Uint8Array(await readFile(dump))]);
  const db = pgliteDatabase(await createPglite({ dataDir: target, loadDataDir: blob }));
  try {
    const repository = createBackupRepository(db);
    return { schemaVersion: await repository.schemaVersion(), appointments: await repository.appointmentCount() };
  } finally {
    await db.close();
  }
}
