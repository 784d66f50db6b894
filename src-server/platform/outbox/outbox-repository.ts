import type { Queryable } from '../../db/connection';
import { isoTimestamp } from '../../db/sql';
import type { MailAttachment } from '../mailer';

/** SQL for the outbox_mail table (0003_outbox.sql). */

/** skipped: not sent because the recipient unsubscribed before it went out (0032_mail_unsubscribe.sql). */
export type OutboxStatus = 'queued' | 'sending' | 'sent' | 'failed' | 'skipped';

export interface NewOutboxMail {
  /** What the mail is about, e.g. 'booking_confirmation' (lower case and underscores). */
  kind: string;
  recipient: string;
  subject: string;
  text: string;
  html?: string;
  attachments?: MailAttachment[];
}

/** The columns every outbox table (mail, SMS) has: what is sent to whom, and how its delivery stands. */
export interface OutboxEntry {
  id: number;
  kind: string;
  recipient: string;
  status: OutboxStatus;
  attempts: number;
  nextAttemptAt: string;
  lastError: string | null;
  createdAt: string;
  sentAt: string | null;
}

export interface OutboxMail extends OutboxEntry {
  subject: string;
  text: string;
  html: string | null;
  attachments: MailAttachment[];
}

interface OutboxRow extends Record<string, unknown> {
  id: number;
  kind: string;
  recipient: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  attachments: unknown;
  status: OutboxStatus;
  attempts: number;
  next_attempt_at: string;
  last_error: string | null;
  created_at: string;
  sent_at: string | null;
}

// bigint id cast to int (node-postgres answers bigint as a string); instants as ISO text in UTC.
const COLUMNS = `id::int as id, kind, recipient, subject, text_body, html_body, attachments, status, attempts,
  ${isoTimestamp('next_attempt_at', 'next_attempt_at')}, last_error,
  ${isoTimestamp('created_at', 'created_at')}, ${isoTimestamp('sent_at', 'sent_at')}`;

function isAttachment(value: unknown): value is MailAttachment {
  return (
    typeof value === 'object' &&
    value !== null &&
    'filename' in value &&
    typeof value.filename === 'string' &&
    'contentType' in value &&
    typeof value.contentType === 'string' &&
    'content' in value &&
    typeof value.content === 'string' &&
    (!('encoding' in value) || value.encoding === undefined || value.encoding === 'base64') &&
    (!('cid' in value) || value.cid === undefined || typeof value.cid === 'string')
  );
}

function toMail(row: OutboxRow): OutboxMail {
  const attachments = Array.isArray(row.attachments) ? row.attachments.filter(isAttachment) : [];
  return {
    id: row.id,
    kind: row.kind,
    recipient: row.recipient,
    subject: row.subject,
    text: row.text_body,
    html: row.html_body,
    attachments,
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: row.next_attempt_at,
    lastError: row.last_error,
    createdAt: row.created_at,
    sentAt: row.sent_at,
  };
}

/** A subject is one header line: no line breaks or control characters, and at most 250 characters. */
export function oneLineSubject(subject: string): string {
  const line = subject
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return line === '' ? '(no subject)' : Array.from(line).slice(0, 250).join('');
}

/**
 * Claims up to `limit` due rows of an outbox table for one worker in one statement: each becomes
 * 'sending' with one more attempt and a lease until `leaseUntil`. FOR UPDATE SKIP LOCKED makes
 * two workers on one PostgreSQL take disjoint rows; a row whose lease ran out (its worker died
 * mid-send) is due again. Shared by the mail and SMS outboxes (same columns for the claim).
 */
export async function claimDueRows<Row extends { id: number }>(
  db: Queryable,
  table: 'outbox_mail' | 'outbox_sms' | 'ris_handoff',
  columns: string,
  window: { now: Date; leaseUntil: Date; limit: number },
): Promise<Row[]> {
  const rows = await db.query<Row>(
    `update ${table} set status = 'sending', attempts = attempts + 1, next_attempt_at = $2
     where id in (
       select id from ${table}
       where status in ('queued', 'sending') and next_attempt_at <= $1
       order by next_attempt_at, id
       limit $3
       for update skip locked)
     returning ${columns}`,
    [window.now.toISOString(), window.leaseUntil.toISOString(), window.limit],
  );
  return rows.sort((a, b) => a.id - b.id);
}

/** The outcome of one claimed attempt: 'sent'; 'retry' at `at` (attempt counted); 'release' at `at` (not tried, attempt given back); 'failed'. */
export type ClaimOutcome =
  { kind: 'sent'; at: Date } | { kind: 'retry' | 'release'; at: Date; error?: string } | { kind: 'failed'; error: string };

/** Records a claimed row's outcome in an outbox-shaped table; false when the claim was lost (another worker took it over). */
export async function settleClaimedRow(
  db: Queryable,
  table: 'outbox_sms' | 'ris_handoff' | 'hl7_outbound',
  claim: { id: number; attempts: number },
  outcome: ClaimOutcome,
): Promise<boolean> {
  const where = `where id = $1 and status = 'sending' and attempts = $2 returning id`;
  const base = [claim.id, claim.attempts];
  let rows: unknown[];
  switch (outcome.kind) {
    case 'sent':
      rows = await db.query(`update ${table} set status = 'sent', sent_at = $3, last_error = null ${where}`, [
        ...base,
        outcome.at.toISOString(),
      ]);
      break;
    case 'retry':
      rows = await db.query(`update ${table} set status = 'queued', next_attempt_at = $3, last_error = $4 ${where}`, [
        ...base,
        outcome.at.toISOString(),
        (outcome.error ?? '').slice(0, 200),
      ]);
      break;
    case 'release':
      rows = await db.query(`update ${table} set status = 'queued', attempts = attempts - 1, next_attempt_at = $3 ${where}`, [
        ...base,
        outcome.at.toISOString(),
      ]);
      break;
    case 'failed':
      rows = await db.query(`update ${table} set status = 'failed', last_error = $3 ${where}`, [...base, outcome.error.slice(0, 200)]);
      break;
  }
  return rows.length === 1;
}

/**
 * The mail outbox (docs/server.md#module-shape): every method runs on `tx` when given, else on the
 * database. Enqueueing takes the caller's transaction so a mail exists exactly when the change it
 * reports was committed.
 */
export function createOutboxRepository(db: Queryable) {
  return {
    /** Adds a mail to the outbox, due at `now` (the injected clock's now); answers the new row's id. */
    async enqueue(mail: NewOutboxMail, now: Date, tx: Queryable = db): Promise<number> {
      const rows = await tx.query<{ id: number }>(
        `insert into outbox_mail (kind, recipient, subject, text_body, html_body, attachments, next_attempt_at, created_at)
         values ($1, $2, $3, $4, $5, $6::jsonb, $7, $7)
         returning id::int as id`,
        [
          mail.kind,
          mail.recipient,
          oneLineSubject(mail.subject),
          mail.text,
          mail.html ?? null,
          JSON.stringify(mail.attachments ?? []),
          now.toISOString(),
        ],
      );
      const id = rows[0]?.id;
      if (id === undefined) throw new Error('[outbox] insert returned no id');
      return id;
    },

    /** Claims up to `limit` due mails (claimDueRows). */
    async claimDue(now: Date, leaseUntil: Date, limit: number, tx: Queryable = db): Promise<OutboxMail[]> {
      const rows = await claimDueRows<OutboxRow>(tx, 'outbox_mail', COLUMNS, { now, leaseUntil, limit });
      return rows.map(toMail);
    },

    /** Records a successful send; false when the claim was lost (another worker took it after the lease). */
    async markSent(id: number, attempts: number, now: Date, tx: Queryable = db): Promise<boolean> {
      const rows = await tx.query(
        `update outbox_mail set status = 'sent', sent_at = $3, last_error = null
         where id = $1 and status = 'sending' and attempts = $2 returning id`,
        [id, attempts, now.toISOString()],
      );
      return rows.length === 1;
    },

    /** Records that a claimed mail is not sent (its recipient unsubscribed); false when the claim was lost. */
    async markSkipped(id: number, attempts: number, now: Date, tx: Queryable = db): Promise<boolean> {
      const rows = await tx.query(
        `update outbox_mail set status = 'skipped', last_error = 'unsubscribed', next_attempt_at = $3
         where id = $1 and status = 'sending' and attempts = $2 returning id`,
        [id, attempts, now.toISOString()],
      );
      return rows.length === 1;
    },

    /** Puts a mail back in the queue until `retryAt`, or gives up ('failed', kept) when retryAt is null. */
    async markAttemptFailed(id: number, attempts: number, error: string, retryAt: Date | null, tx: Queryable = db): Promise<boolean> {
      const rows = await tx.query(
        retryAt === null
          ? `update outbox_mail set status = 'failed', last_error = $3
             where id = $1 and status = 'sending' and attempts = $2 returning id`
          : `update outbox_mail set status = 'queued', last_error = $3, next_attempt_at = $4
             where id = $1 and status = 'sending' and attempts = $2 returning id`,
        retryAt === null ? [id, attempts, error.slice(0, 200)] : [id, attempts, error.slice(0, 200), retryAt.toISOString()],
      );
      return rows.length === 1;
    },

    /** Gives back a claimed mail that was not tried: queued again at `at`, its attempt not counted. */
    async release(id: number, attempts: number, at: Date, tx: Queryable = db): Promise<boolean> {
      const rows = await tx.query(
        `update outbox_mail set status = 'queued', attempts = attempts - 1, next_attempt_at = $3
         where id = $1 and status = 'sending' and attempts = $2 returning id`,
        [id, attempts, at.toISOString()],
      );
      return rows.length === 1;
    },

    /** Deletes mail sent (or skipped) before `before` (it holds personal data); queued and failed mail stays. Answers how many. */
    async deleteSentBefore(before: Date, tx: Queryable = db): Promise<number> {
      const rows = await tx.query(
        `delete from outbox_mail
         where (status = 'sent' and sent_at < $1) or (status = 'skipped' and next_attempt_at < $1) returning id`,
        [before.toISOString()],
      );
      return rows.length;
    },

    /** The most recent mails, newest first (development page). */
    async listRecent(limit: number, tx: Queryable = db): Promise<OutboxMail[]> {
      const rows = await tx.query<OutboxRow>(`select ${COLUMNS} from outbox_mail order by created_at desc, id desc limit $1`, [limit]);
      return rows.map(toMail);
    },

    async find(id: number, tx: Queryable = db): Promise<OutboxMail | null> {
      const rows = await tx.query<OutboxRow>(`select ${COLUMNS} from outbox_mail where id = $1`, [id]);
      const row = rows[0];
      return row === undefined ? null : toMail(row);
    },

    /** How many mails wait to be sent (queued or being sent); for the one-time "no transport" log line. */
    async countPending(tx: Queryable = db): Promise<number> {
      const rows = await tx.query<{ count: number }>(
        `select count(*)::int as count from outbox_mail where status in ('queued', 'sending')`,
      );
      return rows[0]?.count ?? 0;
    },
  };
}

export type OutboxRepository = ReturnType<typeof createOutboxRepository>;
