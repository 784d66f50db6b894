import type { Queryable } from '../../db/connection';
import { isoTimestamp } from '../../db/sql';
import { claimDueRows, settleClaimedRow, type ClaimOutcome, type OutboxEntry } from '../outbox/outbox-repository';

/**
 * SQL for the outbox_sms table (0004_patient_access.sql), the SMS twin of outbox_mail: a row is
 * queued in the transaction of the change it reports, claimed with a lease by one worker
 * (FOR UPDATE SKIP LOCKED), and ends sent, or failed and kept.
 */

export interface NewOutboxSms {
  /** What the SMS is about, e.g. 'otp_code' (lower case and underscores). */
  kind: string;
  /** Digits, optionally with a leading +. */
  recipient: string;
  text: string;
}

export interface OutboxSms extends OutboxEntry {
  text: string;
}

const iso = (column: string, alias: string): string => isoTimestamp(column, `"${alias}"`);

const COLUMNS = `id::int as id, kind, recipient, text_body as text, status, attempts, ${iso('next_attempt_at', 'nextAttemptAt')},
  last_error as "lastError", ${iso('created_at', 'createdAt')}, ${iso('sent_at', 'sentAt')}`;

type Row = OutboxSms & Record<string, unknown>;

/** A phone number as the provider wants it: digits with an optional leading +, spaces and dashes dropped. */
export function normalisePhoneNumber(raw: string): string | null {
  const compact = raw.replace(/[\s().-]/g, '');
  return /^\+?\d{6,15}$/.test(compact) ? compact : null;
}

/** The SMS outbox: every method runs on `tx` when given, else on the database. */
export function createSmsOutboxRepository(db: Queryable) {
  return {
    /** Adds an SMS to the outbox, due now; answers its id. */
    async enqueue(sms: NewOutboxSms, now: Date, tx: Queryable = db): Promise<number> {
      const recipient = normalisePhoneNumber(sms.recipient);
      if (recipient === null) throw new Error('[sms-outbox] not a phone number');
      const rows = await tx.query<{ id: number }>(
        `insert into outbox_sms (kind, recipient, text_body, next_attempt_at, created_at) values ($1, $2, $3, $4, $4) returning id::int as id`,
        [sms.kind, recipient, sms.text, now.toISOString()],
      );
      const id = rows[0]?.id;
      if (id === undefined) throw new Error('[sms-outbox] insert returned no id');
      return id;
    },

    /** Claims up to `limit` due rows: 'sending', one more attempt, leased until `leaseUntil` (claimDueRows). */
    claimDue(now: Date, leaseUntil: Date, limit: number, tx: Queryable = db): Promise<OutboxSms[]> {
      return claimDueRows<Row>(tx, 'outbox_sms', COLUMNS, { now, leaseUntil, limit });
    },

    /** Records the outcome of one claimed attempt (settleClaimedRow); false when the claim was lost. */
    settle(claim: { id: number; attempts: number }, outcome: ClaimOutcome, tx: Queryable = db): Promise<boolean> {
      return settleClaimedRow(tx, 'outbox_sms', claim, outcome);
    },

    async deleteSentBefore(before: Date, tx: Queryable = db): Promise<number> {
      const rows = await tx.query(`delete from outbox_sms where status = 'sent' and sent_at < $1 returning id`, [before.toISOString()]);
      return rows.length;
    },

    async find(id: number, tx: Queryable = db): Promise<OutboxSms | null> {
      const rows = await tx.query<Row>(`select ${COLUMNS} from outbox_sms where id = $1`, [id]);
      return rows[0] ?? null;
    },

    async countPending(tx: Queryable = db): Promise<number> {
      const rows = await tx.query<{ count: number }>(`select count(*)::int as count from outbox_sms where status in ('queued', 'sending')`);
      return rows[0]?.count ?? 0;
    },
  };
}

export type SmsOutboxRepository = ReturnType<typeof createSmsOutboxRepository>;
