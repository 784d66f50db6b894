import type { Queryable } from '../../db/connection';

/** The temporary upload budget's reservations and storage warnings (upload-budget.ts). */
export function createUploadBudgetRepository(db: Queryable) {
  return {
    /** One lock for every temporary reservation, held to the end of the transaction. */
    async lockBudget(tx: Queryable): Promise<void> {
      await tx.query(`select pg_advisory_xact_lock(hashtextextended('temporary-upload-budget', 13))`);
    },

    /**
     * Bytes of the stored temporary documents, plus the reservations not yet settled since
     * `pendingSince` (null: the stored ones only).
     */
    async temporaryBytes(pendingSince: Date | null, tx: Queryable = db): Promise<number> {
      const rows = await tx.query<{ bytes: string }>(
        `select ((select coalesce(sum(size_bytes), 0) from attachment where owner_type = 'TEMPORARY')
               + (select coalesce(sum(bytes), 0) from temporary_upload_reservation
                   where not settled and $1::timestamptz is not null and created_at >= $1::timestamptz))::text as bytes`,
        [pendingSince?.toISOString() ?? null],
      );
      return Number(rows[0]?.bytes ?? 0);
    },

    /** Forgets the reservations that left the window, then lists the client's, oldest first. */
    async clientReservations(client: string, windowStart: Date, tx: Queryable = db): Promise<Array<{ bytes: number; at: number }>> {
      await tx.query(`delete from temporary_upload_reservation where created_at <= $1`, [windowStart.toISOString()]);
      const rows = await tx.query<{ bytes: string; created_at: Date | string }>(
        `select bytes::text as bytes, created_at from temporary_upload_reservation where client_hmac = $1 order by created_at, id`,
        [client],
      );
      return rows.map((row) => ({ bytes: Number(row.bytes), at: new Date(row.created_at).getTime() }));
    },

    async reserve(client: string, bytes: number, now: Date, tx: Queryable = db): Promise<string> {
      const inserted = await tx.query<{ id: string }>(
        `insert into temporary_upload_reservation (client_hmac, bytes, created_at) values ($1, $2, $3) returning id::text as id`,
        [client, bytes, now.toISOString()],
      );
      return inserted[0]?.id ?? '';
    },

    async settle(id: string, size: number, tx: Queryable = db): Promise<void> {
      await tx.query(`update temporary_upload_reservation set bytes = $2, settled = true where id = $1::uuid`, [id, size]);
    },

    async release(id: string, tx: Queryable = db): Promise<void> {
      await tx.query(`delete from temporary_upload_reservation where id = $1::uuid`, [id]);
    },

    /** A storage warning level crossed: true the first time (a row per level), false while it stands. */
    async raiseAlert(levelPercent: number, now: Date, tx: Queryable = db): Promise<boolean> {
      const raised = await tx.query(
        `insert into temporary_upload_alert (level_percent, raised_at) values ($1, $2) on conflict (level_percent) do nothing returning level_percent`,
        [levelPercent, now.toISOString()],
      );
      return raised.length > 0;
    },

    /** The total is below the level again: its next crossing warns again. */
    async clearAlert(levelPercent: number, tx: Queryable = db): Promise<void> {
      await tx.query(`delete from temporary_upload_alert where level_percent = $1`, [levelPercent]);
    },
  };
}
