import type { Queryable } from '../../db/connection';

export function createHealthRepository(db: Queryable) {
  return {
    /** True when the database answers a trivial query. */
    async ping(tx: Queryable = db): Promise<boolean> {
      try {
        const rows = await tx.query<{ ok: number }>('select 1::int as ok');
        return rows[0]?.ok === 1;
      } catch {
        return false;
      }
    },

    /** The migration versions applied to this database (none before the first migration); null when it does not answer. */
    async appliedMigrations(tx: Queryable = db): Promise<string[] | null> {
      try {
        const [table] = await tx.query<{ present: boolean }>(`select to_regclass('schema_migrations') is not null as present`);
        if (table?.present !== true) return [];
        const rows = await tx.query<{ version: string }>('select version from schema_migrations');
        return rows.map((row) => row.version);
      } catch {
        return null;
      }
    },
  };
}

export type HealthRepository = ReturnType<typeof createHealthRepository>;
