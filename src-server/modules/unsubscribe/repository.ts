import type { Queryable } from '../../db/connection';

/** SQL for mail_recipient (0032_mail_unsubscribe.sql): one row per normalised address. */

export interface RecipientRow extends Record<string, unknown> {
  id: string;
  address: string;
  unsubscribed: boolean;
}

const COLUMNS = `id::text as id, address, (unsubscribed_at is not null) as unsubscribed`;

export function createUnsubscribeRepository(db: Queryable) {
  return {
    /** The row for an address, made on first use, with the time a link naming it was sent. */
    async recipientForLink(address: string, now: Date, tx: Queryable = db): Promise<RecipientRow> {
      const rows = await tx.query<RecipientRow>(
        `insert into mail_recipient (address, link_sent_at, updated_at) values ($1, $2, $2)
         on conflict (address) do update set link_sent_at = excluded.link_sent_at
         returning ${COLUMNS}`,
        [address, now.toISOString()],
      );
      const row = rows[0];
      if (row === undefined) throw new Error('[unsubscribe] upsert returned no row');
      return row;
    },

    async find(id: string, tx: Queryable = db): Promise<RecipientRow | null> {
      const rows = await tx.query<RecipientRow>(`select ${COLUMNS} from mail_recipient where id = $1::uuid`, [id]);
      return rows[0] ?? null;
    },

    async isUnsubscribed(address: string, tx: Queryable = db): Promise<boolean> {
      const rows = await tx.query(`select 1 from mail_recipient where address = $1 and unsubscribed_at is not null`, [address]);
      return rows.length > 0;
    },

    /**
     * Unsubscribes a row; an address unsubscribed already keeps its first time (idempotent).
     * Answers whether this call changed it.
     */
    async unsubscribe(id: string, now: Date, tx: Queryable = db): Promise<boolean> {
      const rows = await tx.query(
        `update mail_recipient set unsubscribed_at = $2, updated_at = $2
         where id = $1::uuid and unsubscribed_at is null returning id`,
        [id, now.toISOString()],
      );
      return rows.length === 1;
    },

    /** Subscribes a row again; answers whether this call changed it. */
    async resubscribe(id: string, now: Date, tx: Queryable = db): Promise<boolean> {
      const rows = await tx.query(
        `update mail_recipient set unsubscribed_at = null, updated_at = $2
         where id = $1::uuid and unsubscribed_at is not null returning id`,
        [id, now.toISOString()],
      );
      return rows.length === 1;
    },

    /** Unsubscribes an address (the appointment page's per-booking unsubscribe); answers whether this call changed it. */
    async unsubscribeAddress(address: string, now: Date, tx: Queryable = db): Promise<boolean> {
      const rows = await tx.query<{ changed: boolean }>(
        `insert into mail_recipient (address, unsubscribed_at, updated_at) values ($1, $2, $2)
         on conflict (address) do update set unsubscribed_at = $2, updated_at = $2
           where mail_recipient.unsubscribed_at is null
         returning id`,
        [address, now.toISOString()],
      );
      return rows.length === 1;
    },
  };
}

export type UnsubscribeRepository = ReturnType<typeof createUnsubscribeRepository>;
