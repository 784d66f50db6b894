import type { Database } from '../db/connection';

/** The counted requests of the address window limits (table address_window_hit, address-window-limit.ts). */
export function createAddressWindowRepository(db: Database) {
  return {
    /**
     * Counts one request at `at` unless `limit` requests of this subject are already in the window
     * after `since`; then answers the oldest of them and counts nothing. One subject's requests are
     * taken one at a time (an advisory lock), so two servers cannot both let the last one through.
     */
    take(input: { kind: string; subject: string; at: Date; since: Date; limit: number }): Promise<Date | null> {
      return db.transaction(async (tx) => {
        await tx.query('select pg_advisory_xact_lock(hashtextextended($1, 0))', [`address_window:${input.kind}:${input.subject}`]);
        const [counted] = await tx.query<{ count: number; oldest: Date | string | null }>(
          `select count(*)::int as count, min(at) as oldest from address_window_hit
            where kind = $1 and subject = $2 and at > $3::timestamptz`,
          [input.kind, input.subject, input.since.toISOString()],
        );
        if (counted !== undefined && counted.count >= input.limit && counted.oldest !== null) return new Date(counted.oldest);
        await tx.query('insert into address_window_hit (kind, subject, at) values ($1, $2, $3::timestamptz)', [
          input.kind,
          input.subject,
          input.at.toISOString(),
        ]);
        return null;
      });
    },

    /** Deletes this kind's requests at or before `until` (no window counts them any more). */
    async sweep(kind: string, until: Date): Promise<number> {
      const rows = await db.query('delete from address_window_hit where kind = $1 and at <= $2::timestamptz returning 1', [
        kind,
        until.toISOString(),
      ]);
      return rows.length;
    },
  };
}
