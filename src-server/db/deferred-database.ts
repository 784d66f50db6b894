import type { Database, DatabaseStats } from './connection';

/**
 * A Database to hand out before it is open: every statement waits until `ready` (opened, migrated
 * and seeded) and then runs on it. main.ts builds the server's routes with it while the database
 * opens (in its own thread for PGlite), instead of after. Once `ready` has failed, every statement
 * fails with its error.
 */
export function deferredDatabase(kind: Database['kind'], ready: Promise<Database>): Database {
  let opened: Database | null = null;
  ready.then(
    (db) => (opened = db),
    () => undefined,
  );
  const nothingYet: DatabaseStats = { queries: 0, failedQueries: 0, querySeconds: 0, pool: null };
  return {
    kind,
    stats: () => opened?.stats() ?? nothingYet,
    query: async (sql, params) => (opened ?? (await ready)).query(sql, params),
    exec: async (sql) => (opened ?? (await ready)).exec(sql),
    transaction: async (fn) => (opened ?? (await ready)).transaction(fn),
    async close() {
      const db = await ready.catch(() => null);
      await db?.close();
    },
  };
}
