import type { Queryable } from '../../db/connection';
import { isoTimestamp } from '../../db/sql';

/** SQL for result shares (0020_result_shares.sql) and the reports a contact may read. */

export type ShareRow = {
  id: string;
  type: 'RESULT' | 'HISTORY';
  contactDetails: string;
  contactDetailsType: 'EMAIL' | 'PHONE';
  contactName: string | null;
  note: string | null;
  dateCreatedUTC: string;
  expiresAtUTC: string;
  dateRevoked: string | null;
  accessCount: number;
  accesses: { openedAtUTC: string }[];
};

export interface NewShare {
  bookingKey: string;
  type: 'RESULT' | 'HISTORY';
  contactDetails: string;
  contactType: 'EMAIL' | 'PHONE';
  contactName: string | null;
  note: string | null;
  tokenSha256: string;
  now: Date;
  expiresAt: Date;
}

/** The most openings a share lists (newest first). */
const ACCESSES_LISTED = 20;

export function createResultSharesRepository(db: Queryable) {
  return {
    async insert(share: NewShare, tx: Queryable = db): Promise<string> {
      const rows = await tx.query<{ id: string }>(
        `insert into result_share (booking_key, share_type, contact_details, contact_type, contact_name, note, token_sha256, created_at, expires_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9) returning id::text as id`,
        [
          share.bookingKey,
          share.type,
          share.contactDetails,
          share.contactType,
          share.contactName,
          share.note,
          share.tokenSha256,
          share.now.toISOString(),
          share.expiresAt.toISOString(),
        ],
      );
      const id = rows[0]?.id;
      if (id === undefined) throw new Error('[result-shares] insert returned no id');
      return id;
    },

    /** The booking's shares, newest first, each with its latest openings. */
    async list(bookingKey: string, tx: Queryable = db): Promise<ShareRow[]> {
      return tx.query<ShareRow>(
        `select s.id::text as id, s.share_type as type, s.contact_details as "contactDetails", s.contact_type as "contactDetailsType",
                s.contact_name as "contactName", s.note, ${isoTimestamp('s.created_at', '"dateCreatedUTC"')},
                ${isoTimestamp('s.expires_at', '"expiresAtUTC"')}, ${isoTimestamp('s.revoked_at', '"dateRevoked"')},
                coalesce((select json_agg(json_build_object('openedAtUTC', to_char(x.opened_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
                                          order by x.opened_at desc)
                            from (select opened_at from result_share_access where share_id = s.id order by opened_at desc limit ${ACCESSES_LISTED}) x),
                         '[]'::json) as accesses,
                (select count(*)::int from result_share_access where share_id = s.id) as "accessCount"
           from result_share s where s.booking_key = $1 order by s.created_at desc, s.id`,
        [bookingKey],
      );
    },

    /** Revokes the booking's share; false when the booking has no such share. Revoking twice keeps the first time. */
    async revoke(bookingKey: string, id: string, now: Date, tx: Queryable = db): Promise<boolean> {
      const rows = await tx.query(
        `update result_share set revoked_at = coalesce(revoked_at, $3) where id = $2::uuid and booking_key = $1 returning id`,
        [bookingKey, id, now.toISOString()],
      );
      return rows.length === 1;
    },

    async shareOf(id: string, tx: Queryable = db): Promise<{ bookingKey: string; type: 'RESULT' | 'HISTORY' } | null> {
      const rows = await tx.query<{ bookingKey: string; type: 'RESULT' | 'HISTORY' }>(
        `select booking_key as "bookingKey", share_type as type from result_share where id = $1::uuid`,
        [id],
      );
      return rows[0] ?? null;
    },

    /** Shares a booking made since `since` and the oldest of them (the rate limit on sending links). */
    async countSince(bookingKey: string, since: Date, tx: Queryable = db): Promise<{ count: number; oldest: string | null }> {
      const rows = await tx.query<{ count: number; oldest: string | null }>(
        `select count(*)::int as count, ${isoTimestamp('min(created_at)', 'oldest')}
           from result_share where booking_key = $1 and created_at > $2`,
        [bookingKey, since.toISOString()],
      );
      return rows[0] ?? { count: 0, oldest: null };
    },

    /** The patient's first name and last initial ("Liam E."), for the contact's page and mail. */
    async sharerName(bookingKey: string, tx: Queryable = db): Promise<{ firstName: string; lastName: string } | null> {
      const rows = await tx.query<{ firstName: string; lastName: string }>(
        `select p.first_name as "firstName", p.last_name as "lastName"
           from appointment a join patient p on p.id = a.patient_id where a.booking_key = $1 order by a.created_at, a.id limit 1`,
        [bookingKey],
      );
      return rows[0] ?? null;
    },
  };
}

export type ResultSharesRepository = ReturnType<typeof createResultSharesRepository>;
