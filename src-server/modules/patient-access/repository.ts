import type { SignInType, OtpChannel } from '@contract/api/patient-access';
import { createAuditLogRepository } from '../../db/audit-log';
import type { Queryable } from '../../db/connection';
import { isoTimestamp } from '../../db/sql';

/** SQL for patient sign-in (0004_patient_access.sql). Instants are passed and read as ISO text in UTC. */

export type SessionStage = 'dob_verified' | 'authenticated';

export interface PatientSessionRow {
  id: string;
  bookingKey: string;
  type: SignInType;
  stage: SessionStage;
  shared: boolean;
  /** The result share a contact signed in with (docs/rules/results.md#sharing); null for the patient's own sessions. */
  shareId: string | null;
  createdAt: string;
  lastSeenAt: string;
  expiresAt: string;
}

/** A share as its contact's sign-in sees it: whose date of birth to ask, where the code goes, and whether it still stands. */
export interface ShareSubject {
  id: string;
  bookingKey: string;
  shareType: 'RESULT' | 'HISTORY';
  contactType: 'EMAIL' | 'PHONE';
  contactDetails: string;
  dateOfBirth: string;
  expiresAt: string;
  revokedAt: string | null;
}

export interface SignInSubject {
  dateOfBirth: string;
  email: string | null;
  contactNumber: string | null;
}

export interface OtpRow {
  id: string;
  channel: OtpChannel;
  salt: string;
  codeHmac: string;
  createdAt: string;
  expiresAt: string;
  failedAttempts: number;
  usedAt: string | null;
  burntAt: string | null;
}

const SESSION_COLUMNS = `id::text as id, booking_key as "bookingKey", subject_type as type, stage, shared, share_id::text as "shareId",
  ${isoTimestamp('created_at', '"createdAt"')}, ${isoTimestamp('last_seen_at', '"lastSeenAt"')}, ${isoTimestamp('expires_at', '"expiresAt"')}`;

const OTP_COLUMNS = `id::text as id, channel, salt, code_hmac as "codeHmac", ${isoTimestamp('created_at', '"createdAt"')},
  ${isoTimestamp('expires_at', '"expiresAt"')}, failed_attempts as "failedAttempts", ${isoTimestamp('used_at', '"usedAt"')}, ${isoTimestamp('burnt_at', '"burntAt"')}`;

export type FailureScope = 'booking_key' | 'client';

export function createPatientAccessRepository(db: Queryable) {
  const auditLog = createAuditLogRepository(db);
  return {
    /** The stored fallback secret, made on first use (two processes racing agree on the first insert). */
    async secret(candidate: string, now: Date, tx: Queryable = db): Promise<string> {
      await tx.query(`insert into patient_access_secret (id, secret, created_at) values (1, $1, $2) on conflict (id) do nothing`, [
        candidate,
        now.toISOString(),
      ]);
      const rows = await tx.query<{ secret: string }>(`select secret from patient_access_secret where id = 1`);
      const secret = rows[0]?.secret;
      if (secret === undefined) throw new Error('[patient-access] no secret row');
      return secret;
    },

    /**
     * The person a booking key belongs to, for the given subject type; null when the key is
     * unknown. Several rows share a key (a multi-exam booking): they share one patient.
     */
    async findSubject(bookingKey: string, type: SignInType, tx: Queryable = db): Promise<SignInSubject | null> {
      // Results sign-ins are to an appointment too.
      const table = type === 'BOOKING_REQUEST' ? 'booking_request' : 'appointment';
      const rows = await tx.query<{ dateOfBirth: string; email: string | null; contactNumber: string | null }>(
        `select p.date_of_birth::text as "dateOfBirth", p.email, p.contact_number as "contactNumber"
         from ${table} s join patient p on p.id = s.patient_id
         where s.booking_key = $1 order by s.created_at, s.id limit 1`,
        [bookingKey],
      );
      return rows[0] ?? null;
    },

    /** The share whose link token hashes to tokenSha256, with its patient's date of birth; null when there is none. */
    async findShare(tokenSha256: string, tx: Queryable = db): Promise<ShareSubject | null> {
      const rows = await tx.query<ShareSubject & Record<string, unknown>>(
        `select s.id::text as id, s.booking_key as "bookingKey", s.share_type as "shareType", s.contact_type as "contactType",
                s.contact_details as "contactDetails", p.date_of_birth::text as "dateOfBirth",
                ${isoTimestamp('s.expires_at', '"expiresAt"')}, ${isoTimestamp('s.revoked_at', '"revokedAt"')}
           from result_share s
           join lateral (select patient_id from appointment a where a.booking_key = s.booking_key order by a.created_at, a.id limit 1) a on true
           join patient p on p.id = a.patient_id
          where s.token_sha256 = $1`,
        [tokenSha256],
      );
      return rows[0] ?? null;
    },

    /** Whether a share still stands: 'live', 'revoked' or 'expired' (a deleted share counts as revoked). */
    async shareState(shareId: string, now: Date, tx: Queryable = db): Promise<'live' | 'revoked' | 'expired'> {
      const rows = await tx.query<{ revoked: boolean; expired: boolean }>(
        `select revoked_at is not null as revoked, expires_at <= $2::timestamptz as expired from result_share where id = $1::uuid`,
        [shareId, now.toISOString()],
      );
      const row = rows[0];
      return row === undefined || row.revoked ? 'revoked' : row.expired ? 'expired' : 'live';
    },

    async shareContact(shareId: string, tx: Queryable = db): Promise<Pick<ShareSubject, 'contactType' | 'contactDetails'> | null> {
      const rows = await tx.query<Pick<ShareSubject, 'contactType' | 'contactDetails'> & Record<string, unknown>>(
        `select contact_type as "contactType", contact_details as "contactDetails" from result_share where id = $1::uuid`,
        [shareId],
      );
      return rows[0] ?? null;
    },

    /** A contact opened the share (a completed sign-in): the patient sees it on the share list. */
    async recordShareOpened(shareId: string, now: Date, tx: Queryable = db): Promise<void> {
      await tx.query(`insert into result_share_access (share_id, opened_at) values ($1::uuid, $2)`, [shareId, now.toISOString()]);
    },

    async countFailures(scope: FailureScope, subjectHmac: string, since: Date, tx: Queryable = db): Promise<number> {
      const rows = await tx.query<{ count: number }>(
        `select count(*)::int as count from patient_access_failure where scope = $1 and subject_hmac = $2 and occurred_at > $3`,
        [scope, subjectHmac, since.toISOString()],
      );
      return rows[0]?.count ?? 0;
    },

    /** How many failures a subject has since `since`, with the oldest and the newest of them (ISO, null when none). */
    async failureSpan(
      scope: FailureScope,
      subjectHmac: string,
      since: Date,
      tx: Queryable = db,
    ): Promise<{ count: number; oldest: string | null; latest: string | null }> {
      const rows = await tx.query<{ count: number; oldest: string | null; latest: string | null }>(
        `select count(*)::int as count, ${isoTimestamp('min(occurred_at)', 'oldest')}, ${isoTimestamp('max(occurred_at)', 'latest')}
         from patient_access_failure where scope = $1 and subject_hmac = $2 and occurred_at > $3`,
        [scope, subjectHmac, since.toISOString()],
      );
      return rows[0] ?? { count: 0, oldest: null, latest: null };
    },

    async recordFailure(scope: FailureScope, subjectHmac: string, stage: 'dob' | 'otp', now: Date, tx: Queryable = db): Promise<void> {
      await tx.query(`insert into patient_access_failure (scope, subject_hmac, stage, occurred_at) values ($1, $2, $3, $4)`, [
        scope,
        subjectHmac,
        stage,
        now.toISOString(),
      ]);
    },

    async deleteFailuresBefore(before: Date, tx: Queryable = db): Promise<number> {
      const rows = await tx.query(`delete from patient_access_failure where occurred_at < $1 returning id`, [before.toISOString()]);
      return rows.length;
    },

    async insertSession(
      session: {
        tokenSha256: string;
        bookingKey: string;
        type: SignInType;
        stage: SessionStage;
        shared: boolean;
        shareId: string | null;
        now: Date;
        expiresAt: Date;
      },
      tx: Queryable = db,
    ): Promise<PatientSessionRow> {
      const rows = await tx.query<PatientSessionRow & Record<string, unknown>>(
        `insert into patient_session (token_sha256, booking_key, subject_type, stage, shared, share_id, created_at, last_seen_at, expires_at)
         values ($1, $2, $3, $4, $5, $6::uuid, $7, $7, $8) returning ${SESSION_COLUMNS}`,
        [
          session.tokenSha256,
          session.bookingKey,
          session.type,
          session.stage,
          session.shared,
          session.shareId,
          session.now.toISOString(),
          session.expiresAt.toISOString(),
        ],
      );
      const row = rows[0];
      if (row === undefined) throw new Error('[patient-access] session insert returned nothing');
      return row;
    },

    async findSessionByTokenHash(tokenSha256: string, tx: Queryable = db): Promise<PatientSessionRow | null> {
      const rows = await tx.query<PatientSessionRow & Record<string, unknown>>(
        `select ${SESSION_COLUMNS} from patient_session where token_sha256 = $1`,
        [tokenSha256],
      );
      return rows[0] ?? null;
    },

    async touchSession(id: string, now: Date, tx: Queryable = db): Promise<void> {
      await tx.query(`update patient_session set last_seen_at = $2 where id = $1 and last_seen_at < $2`, [id, now.toISOString()]);
    },

    /** Fully authenticated, under a new token (the one used before the one-time password stops working). */
    async authenticateWithNewToken(id: string, tokenSha256: string, now: Date, tx: Queryable = db): Promise<void> {
      await tx.query(`update patient_session set stage = 'authenticated', token_sha256 = $2, last_seen_at = $3 where id = $1`, [
        id,
        tokenSha256,
        now.toISOString(),
      ]);
    },

    /** Locks the session row for the caller's transaction; false when it is gone. */
    async lockSession(id: string, tx: Queryable = db): Promise<boolean> {
      const rows = await tx.query(`select id from patient_session where id = $1 for update`, [id]);
      return rows.length === 1;
    },

    /** Serialises attempts on one subject (booking key or client) across processes, until commit. */
    async lockSubject(subjectHmac: string, tx: Queryable = db): Promise<void> {
      await tx.query(`select 1 as locked from pg_advisory_xact_lock(hashtextextended($1, 0))`, [subjectHmac]);
    },

    async deleteSessionByTokenHash(tokenSha256: string, tx: Queryable = db): Promise<boolean> {
      const rows = await tx.query(`delete from patient_session where token_sha256 = $1 returning id`, [tokenSha256]);
      return rows.length === 1;
    },

    /** Ended sessions (absolute end, or idle since `idleBefore`); their OTPs go with them. */
    async deleteEndedSessions(now: Date, idleBefore: Date, tx: Queryable = db): Promise<number> {
      const rows = await tx.query(`delete from patient_session where expires_at <= $1 or last_seen_at <= $2 returning id`, [
        now.toISOString(),
        idleBefore.toISOString(),
      ]);
      return rows.length;
    },

    async insertOtp(
      otp: { sessionId: string; bookingKey: string; channel: OtpChannel; salt: string; codeHmac: string; now: Date; expiresAt: Date },
      tx: Queryable = db,
    ): Promise<void> {
      await tx.query(
        `insert into patient_otp (session_id, booking_key, channel, salt, code_hmac, created_at, expires_at)
         values ($1, $2, $3, $4, $5, $6, $7)`,
        [otp.sessionId, otp.bookingKey, otp.channel, otp.salt, otp.codeHmac, otp.now.toISOString(), otp.expiresAt.toISOString()],
      );
    },

    /** The session's newest OTP, locked for the caller's transaction. */
    async latestOtpForUpdate(sessionId: string, tx: Queryable = db): Promise<OtpRow | null> {
      const rows = await tx.query<OtpRow & Record<string, unknown>>(
        `select ${OTP_COLUMNS} from patient_otp where session_id = $1 order by created_at desc, id desc limit 1 for update`,
        [sessionId],
      );
      return rows[0] ?? null;
    },

    async countOtpsSince(bookingKey: string, since: Date, tx: Queryable = db): Promise<number> {
      const rows = await tx.query<{ count: number }>(
        `select count(*)::int as count from patient_otp where booking_key = $1 and created_at > $2`,
        [bookingKey, since.toISOString()],
      );
      return rows[0]?.count ?? 0;
    },

    async latestOtpSentAt(bookingKey: string, tx: Queryable = db): Promise<string | null> {
      const rows = await tx.query<{ at: string }>(
        `select ${isoTimestamp('max(created_at)', 'at')} from patient_otp where booking_key = $1`,
        [bookingKey],
      );
      return rows[0]?.at ?? null;
    },

    /** Codes queued for one destination (any booking) since `since`, counted in the outboxes. */
    async countCodesToDestination(channel: OtpChannel, destination: string, since: Date, tx: Queryable = db): Promise<number> {
      const rows = await tx.query<{ count: number }>(
        channel === 'EMAIL'
          ? `select count(*)::int as count from outbox_mail where kind = 'otp_code' and lower(recipient) = lower($1) and created_at > $2`
          : `select count(*)::int as count from outbox_sms where kind = 'otp_code' and recipient = $1 and created_at > $2`,
        [destination, since.toISOString()],
      );
      return rows[0]?.count ?? 0;
    },

    /** Every code SMS queued since `since` (the cost ceiling). */
    async countCodeSmsSince(since: Date, tx: Queryable = db): Promise<number> {
      const rows = await tx.query<{ count: number }>(
        `select count(*)::int as count from outbox_sms where kind = 'otp_code' and created_at > $1`,
        [since.toISOString()],
      );
      return rows[0]?.count ?? 0;
    },

    async recordOtpFailure(id: string, burn: boolean, now: Date, tx: Queryable = db): Promise<void> {
      await tx.query(
        `update patient_otp set failed_attempts = failed_attempts + 1, burnt_at = case when $2 then $3::timestamptz else burnt_at end where id = $1`,
        [id, burn, now.toISOString()],
      );
    },

    async markOtpUsed(id: string, now: Date, tx: Queryable = db): Promise<void> {
      await tx.query(`update patient_otp set used_at = $2 where id = $1`, [id, now.toISOString()]);
    },

    async audit(
      entry: { action: string; subjectType: string; subjectId: string | null; details: Record<string, unknown>; now: Date },
      tx: Queryable = db,
    ): Promise<void> {
      await auditLog.record({ actor: 'patient', ...entry }, tx);
    },
  };
}

export type PatientAccessRepository = ReturnType<typeof createPatientAccessRepository>;
