import type { Queryable } from './connection';

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

/**
 * Writes the pool this database's size wants into its own configuration (ALTER SYSTEM, kept in
 * postgresql.auto.conf), for its next start: measuring the size at a start would cost that start
 * a walk over every file. Answers the pool now configured, in MB.
 */
export async function fitSharedBuffersToSize(db: Queryable, sizeMb?: number): Promise<number> {
  const [row] = await db.query<{ bytes: number }>('select pg_database_size(current_database())::float8 as bytes');
  const wanted = sizeMb ?? automaticSharedBuffersMb(row?.bytes ?? 0);
  // Written every time: the running value may come from a start's own setting, not the file's.
  await db.exec(`alter system set shared_buffers = '${wanted}MB'`);
  return wanted;
}
