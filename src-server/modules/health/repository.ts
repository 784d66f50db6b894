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
  };
}

export type HealthRepository = ReturnType<typeof createHealthRepository>;
