// Reference data ten times the booking benchmark's (booking-10x.bench.ts): 500 clinics x 3
// resources, 90 days, the same generator (helpers/booking-data.ts), about 1.7 million appointments.
// Written with the appointment table's indexes, exclusion constraint and triggers set aside and
// the indexes built once afterwards: row by row the GiST indexes and the per-row foreign-key
// checks cost PGlite about 70 s per 170,000 rows, in bulk about 15 s.
import type { Database, Queryable } from '../../../src-server/db/connection';
import { generate, type BenchData, type BenchSize } from './booking-data';

export interface BulkTimings {
  /** Generating and inserting the rows, indexes set aside. */
  insertMs: number;
  /** Building the exclusion constraint and the indexes again, then analyze. */
  indexMs: number;
}

async function setAside(tx: Queryable): Promise<string[]> {
  const indexes = await tx.query<{ name: string; definition: string }>(
    `select indexname as name, indexdef as definition from pg_indexes
      where tablename = 'appointment' and indexname not in (select conname from pg_constraint where conrelid = 'appointment'::regclass)`,
  );
  // The primary key stays (it is what the other indexes would point at anyway); unique and
  // exclusion constraints are rebuilt, so a duplicate or an overlap still fails the load.
  const constraints = await tx.query<{ name: string; definition: string }>(
    `select conname as name, pg_get_constraintdef(oid) as definition from pg_constraint
      where conrelid = 'appointment'::regclass and contype in ('u', 'x')`,
  );
  for (const constraint of constraints) await tx.query(`alter table appointment drop constraint ${constraint.name}`);
  for (const index of indexes) await tx.query(`drop index ${index.name}`);
  return [
    ...constraints.map((constraint) => `alter table appointment add constraint ${constraint.name} ${constraint.definition}`),
    ...indexes.map((index) => index.definition),
  ];
}

/**
 * The generator's data in one transaction, fast. Triggers (the availability change log, foreign
 * keys) are off while it loads: the generator writes consistent rows, and every server reads the
 * whole index when it starts, so no change needs logging.
 */
export async function generateBulk(db: Database, now: Date, size: BenchSize): Promise<BenchData & BulkTimings> {
  const result = await db.transaction(async (tx) => {
    // The server's statement timeout is for requests, not for building a 1.7 M-row GiST index.
    await tx.query('set local statement_timeout = 0');
    const rebuild = await setAside(tx);
    await tx.query('set local session_replication_role = replica');
    const started = performance.now();
    const data = await generate(tx, now, size);
    const insertMs = performance.now() - started;
    await tx.query('set local session_replication_role = origin');
    const indexStarted = performance.now();
    for (const statement of rebuild) await tx.query(statement);
    return { ...data, insertMs, indexStarted };
  });
  await db.query('analyze appointment');
  const { indexStarted, ...data } = result;
  return { ...data, indexMs: performance.now() - indexStarted };
}
