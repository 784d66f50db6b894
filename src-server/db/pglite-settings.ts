import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * PGlite's shared buffer pool. PGlite clears the whole pool at every start, at about 3 ms per MB
 * on one core, so PostgreSQL's own 128 MB cost 0.3-0.5 s of each start of a small database. A
 * large database still wants a large pool: with 1.7 million appointments, 16 MB instead of 128 MB
 * made month views over every clinic 1.5 times slower. So the pool follows the database: a
 * quarter of its size, in steps of 16 MB, from 16 MB to 256 MB, unless PGLITE_SHARED_BUFFERS_MB
 * sets it.
 */
export const PGLITE_SHARED_BUFFERS_MIN_MB = 16;
export const PGLITE_SHARED_BUFFERS_MAX_MB = 256;
const STEP_MB = 16;
const MB = 1024 * 1024;

/** The pool for a database whose tables and indexes take `databaseBytes`. */
export function automaticSharedBuffersMb(databaseBytes: number): number {
  const quarterInSteps = Math.ceil(databaseBytes / 4 / (STEP_MB * MB)) * STEP_MB;
  return Math.min(PGLITE_SHARED_BUFFERS_MAX_MB, Math.max(PGLITE_SHARED_BUFFERS_MIN_MB, quarterInSteps));
}

/** Bytes of the tables and indexes in a PGlite data folder (its base/ and global/; 0 for a new folder). */
export function databaseFolderBytes(dataFolder: string): number {
  let bytes = 0;
  for (const part of ['base', 'global']) {
    if (!existsSync(join(dataFolder, part))) continue;
    const entries = readdirSync(join(dataFolder, part), { recursive: true, withFileTypes: true, encoding: 'utf8' });
    for (const entry of entries) if (entry.isFile()) bytes += statSync(join(entry.parentPath, entry.name)).size;
  }
  return bytes;
}
