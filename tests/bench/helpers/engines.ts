import { createPglite, openPostgres, pgliteDatabase, type Database } from '../../../src-server/db/connection';
import { createPostgresDatabase, dropPostgresDatabase, postgresUrlFor } from '../../server/helpers/database';
import type { GoalResult } from './stats';

/**
 * Measures on a fresh PGlite, then on a fresh PostgreSQL database when DATABASE_URL is set (dropped after).
 * PGlite's buffer pool is the smallest unless `pgliteSharedBuffersMb` asks for another.
 */
export async function onEachEngine(
  measure: (engine: 'pglite' | 'postgres', db: Database) => Promise<GoalResult[]>,
  options: { pgliteSharedBuffersMb?: number } = {},
): Promise<GoalResult[]> {
  const results: GoalResult[] = [];
  const pool = options.pgliteSharedBuffersMb === undefined ? {} : { sharedBuffersMb: options.pgliteSharedBuffersMb };
  const pglite = pgliteDatabase(await createPglite(pool));
  try {
    results.push(...(await measure('pglite', pglite)));
  } finally {
    await pglite.close();
  }
  if (process.env.DATABASE_URL) {
    const name = await createPostgresDatabase();
    const postgres = await openPostgres(postgresUrlFor(name), name);
    try {
      results.push(...(await measure('postgres', postgres)));
    } finally {
      await postgres.close();
      await dropPostgresDatabase(name);
    }
  }
  return results;
}

/** Runs a benchmark script's main: exit 0 when every goal was met, 1 when one was missed, 2 on an error. */
export function runBenchmark(main: () => Promise<boolean>): void {
  main().then(
    (met) => process.exit(met ? 0 : 1),
    (error: unknown) => {
      console.error(error);
      process.exit(2);
    },
  );
}
