import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPostgres, type Database } from '../../../src-server/db/connection';
import { automaticSharedBuffersMb, PGLITE_SHARED_BUFFERS_MIN_MB } from '../../../src-server/db/pglite-settings';
import { openPgliteDataDirInThread } from '../../../src-server/db/pglite-thread/client';
import { createPostgresDatabase, dropPostgresDatabase, postgresUrlFor } from '../../server/helpers/database';
import type { GoalResult } from './stats';

/**
 * The PGlite pool a benchmark measured with is the one the server would open its database with
 * (db/pglite-settings.ts sizes it by the database): a benchmark whose data wants a larger pool
 * says so here, and passes that pool to onEachEngine.
 */
async function poolSizeMatches(db: Database, poolMb: number): Promise<GoalResult> {
  const [size] = await db.query<{ bytes: number }>('select pg_database_size(current_database())::float8 as bytes');
  const bytes = size?.bytes ?? 0;
  const automatic = automaticSharedBuffersMb(bytes);
  return {
    name: `PGlite's shared buffer pool: ${poolMb} MB, as the server sizes it for this database (${Math.round(bytes / 2 ** 20)} MiB)`,
    engine: 'pglite',
    measured: `automatic sizing gives ${automatic} MB`,
    goal: `${poolMb} MB`,
    met: automatic === poolMb,
  };
}

/**
 * A new PGlite as the server runs it: a data folder of its own, in the database's own thread
 * (docs/server.md#the-database-thread), with this buffer pool. Closing it removes the folder.
 */
export async function openBenchPglite(poolMb: number = PGLITE_SHARED_BUFFERS_MIN_MB): Promise<Database> {
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-bench-pglite-'));
  const db = await openPgliteDataDirInThread(dataDir, poolMb);
  return {
    ...db,
    async close() {
      try {
        await db.close();
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
}

/**
 * Measures on a fresh PGlite (openBenchPglite), then on a fresh PostgreSQL database when DATABASE_URL is set (dropped after).
 * PGlite's buffer pool is the smallest unless `pgliteSharedBuffersMb` asks for another; either way
 * it must be the pool the server would give the database the benchmark built.
 */
export async function onEachEngine(
  measure: (engine: 'pglite' | 'postgres', db: Database) => Promise<GoalResult[]>,
  options: { pgliteSharedBuffersMb?: number } = {},
): Promise<GoalResult[]> {
  const results: GoalResult[] = [];
  const poolMb = options.pgliteSharedBuffersMb ?? PGLITE_SHARED_BUFFERS_MIN_MB;
  const pglite = await openBenchPglite(poolMb);
  try {
    results.push(...(await measure('pglite', pglite)));
    results.push(await poolSizeMatches(pglite, poolMb));
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
