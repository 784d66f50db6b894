import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import {
  PATIENT_SESSION_COOKIE,
  SIGN_IN_MESSAGES,
  type AuthenticateRequest,
  type AuthenticateResponse,
  type MaxAttemptsDetails,
  type OtpChannel,
  type SendOtpResponse,
  type SignInType,
} from '@contract/api/patient-access';
import type { Database, Queryable } from '../../db/connection';
import type { Clock } from '../../platform/clock';
import { AppError, badRequest, unauthorized } from '../../platform/errors';
import { randomToken } from '../../platform/ids';
import { createOutboxRepository } from '../../platform/outbox/outbox-repository';
import { createSmsOutboxRepository, normalisePhoneNumber } from '../../platform/sms/sms-outbox-repository';
import { readCookie } from './cookie';
import { maskEmail } from '../../platform/mask';
import { maskPhone, otpMailText, otpSmsText } from './otp-messages';
import type { PatientAccessRepository, PatientSessionRow, SignInSubject } from './repository';
import { SESSION_REQUIRED_MESSAGE } from './session-guard';

/**
 * Patient sign-in rules (docs/rules/patient-access.md):
 * - date of birth (and, when given, the contact number) against the booking's patient; a wrong
 *   answer and an unknown key give the same 401 after the same queries;
 * - failures counted per booking key (5) and per client address (20) over 15 minutes; at the
 *   limit the answer is 429 max_attempts_reached, even for the right answer;
 * - a one-time password when the provider asks for it (appointments only): 6 digits from
 *   crypto.randomInt, kept as HMAC-SHA256(secret, salt:code), valid 10 minutes, used once, burnt
 *   by the 5th wrong try; sent by e-mail or SMS through the outboxes; resend throttled;
 * - sessions: a 256-bit cookie token of which only the sha256 is stored, 30 minutes idle and
 *   12 hours at most, a new token once the code is accepted;
 * - every success, failure, lock, send and check in audit_log, naming the booking key only by a
 *   sha256 prefix and the client only by an HMAC prefix.
 */

export const SESSION_IDLE_MS = 30 * 60_000;
export const SESSION_MAX_MS = 12 * 60 * 60_000;
export const OTP_TTL_MS = 10 * 60_000;
export const OTP_MAX_WRONG = 5;
export const OTP_MAX_SENDS_PER_HOUR = 5;
/** One address or number gets at most this many codes an hour, whatever the booking (SMS/mail bombing). */
export const OTP_MAX_SENDS_PER_DESTINATION_HOUR = 10;
/** All code SMS together, per hour: a ceiling on what an attack can cost. */
export const OTP_MAX_SMS_PER_HOUR = 1000;
export const FAILURE_WINDOW_MS = 15 * 60_000;
export const MAX_FAILURES_PER_KEY = 5;
export const MAX_FAILURES_PER_CLIENT = 20;
const SWEEP_KEEP_FAILURES_MS = 24 * 60 * 60_000;

export interface SignInSettings {
  otpRequired: boolean;
  otpResendSeconds: number;
  providerName: string;
}

export interface PatientAccessServiceDeps {
  db: Database;
  repository: PatientAccessRepository;
  clock: Clock;
  /** SESSION_SECRET; null: the database's own random secret. */
  sessionSecret: string | null;
  /** An SMS provider is configured: SMS codes are offered. */
  smsConfigured: boolean;
  settings: () => Promise<SignInSettings>;
}

/** Who is asking: the Cookie header and the client address. */
export interface RequestContext {
  cookie: string | string[] | undefined;
  ip: string;
}

export interface LiveSession extends PatientSessionRow {
  tokenSha256: string;
}

export const sha256Hex = (text: string): string => createHash('sha256').update(text).digest('hex');
/** How the audit log names a booking key: never the key itself (it is the patient's secret link). */
export const keyRef = (bookingKey: string): string => sha256Hex(bookingKey).slice(0, 16);

const ROLE_TRANSLATIONS = '{}';
const TOO_MANY_ATTEMPTS = 'Too many attempts. Please try again later.';

function maxAttempts(stage: 'dob' | 'otp', shared: boolean): AppError {
  const details: MaxAttemptsDetails = {
    maxAttempts: shared ? 'max_attempts_reached_shared' : stage === 'dob' ? 'max_attempts_reached' : 'max_attempts_reached_results',
  };
  return new AppError('max_attempts_reached', 429, TOO_MANY_ATTEMPTS, details);
}

/** 429 too_many_requests; details.retryAfterSeconds becomes the Retry-After header. */
export function otpThrottled(retryAfterSeconds: number): AppError {
  return new AppError('too_many_requests', 429, 'Please wait before asking for another code.', {
    retryAfterSeconds: Math.max(1, Math.ceil(retryAfterSeconds)),
  });
}

const digitsOnly = (value: string | null): string => (value ?? '').replace(/\D/g, '');

function channelsFor(subject: SignInSubject, smsConfigured: boolean): OtpChannel[] {
  const channels: OtpChannel[] = [];
  if (subject.email !== null && subject.email.includes('@')) channels.push('EMAIL');
  if (smsConfigured && subject.contactNumber !== null && normalisePhoneNumber(subject.contactNumber) !== null) channels.push('SMS');
  return channels;
}

/** Six digits, leading zeros kept. */
export function generateOtpCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

export function createPatientAccessService(deps: PatientAccessServiceDeps) {
  const { db, repository, clock } = deps;
  const mailOutbox = createOutboxRepository(db);
  const smsOutbox = createSmsOutboxRepository(db);
  let secretPromise: Promise<string> | null = null;

  function secret(): Promise<string> {
    if (deps.sessionSecret !== null) return Promise.resolve(deps.sessionSecret);
    secretPromise ??= repository.secret(randomBytes(32).toString('hex'), clock.now()).catch((error: unknown) => {
      secretPromise = null;
      throw error;
    });
    return secretPromise;
  }

  const hmac = (key: string, text: string): string => createHmac('sha256', key).update(text).digest('hex');
  const otpHmac = (key: string, salt: string, code: string): string => hmac(key, `otp:${salt}:${code}`);

  async function audit(tx: Queryable, action: string, bookingKey: string, details: Record<string, unknown>): Promise<void> {
    await repository.audit({ action, subjectType: 'booking_key', subjectId: keyRef(bookingKey), details, now: clock.now() }, tx);
  }

  /** The request's live session (any stage), its idle timer refreshed; ended sessions are deleted. */
  async function current(context: Pick<RequestContext, 'cookie'>): Promise<LiveSession | null> {
    const token = readCookie(context.cookie, PATIENT_SESSION_COOKIE);
    if (token === null) return null;
    const tokenSha256 = sha256Hex(token);
    const row = await repository.findSessionByTokenHash(tokenSha256);
    if (row === null) return null;
    const now = clock.now().getTime();
    if (now >= Date.parse(row.expiresAt) || now - Date.parse(row.lastSeenAt) >= SESSION_IDLE_MS) {
      await repository.deleteSessionByTokenHash(tokenSha256);
      return null;
    }
    await repository.touchSession(row.id, clock.now());
    return { ...row, tokenSha256 };
  }

  async function pendingSession(context: RequestContext): Promise<LiveSession> {
    const session = await current(context);
    if (session?.stage !== 'dob_verified') throw unauthorized(SESSION_REQUIRED_MESSAGE);
    return session;
  }

  return {
    current,

    /**
     * Date-of-birth step. Answers the new session's cookie token with the response; throws 401
     * authentication_failed or 429 max_attempts_reached.
     */
    async authenticate(input: AuthenticateRequest, context: RequestContext): Promise<{ token: string; response: AuthenticateResponse }> {
      const key = await secret();
      const settings = await deps.settings();
      const keyHmac = hmac(key, `key:${input.bookingKey}`);
      const clientHmac = hmac(key, `ip:${context.ip}`);
      const clientRef = clientHmac.slice(0, 16);
      const shared = input.shared === true;
      const previousToken = readCookie(context.cookie, PATIENT_SESSION_COOKIE);

      const outcome = await db.transaction(async (tx) => {
        const now = clock.now();
        const since = new Date(now.getTime() - FAILURE_WINDOW_MS);
        // One attempt at a time per key and per client, so 50 parallel guesses cannot all slip
        // under the limit (always key first, then client: no lock cycle).
        await repository.lockSubject(keyHmac, tx);
        await repository.lockSubject(clientHmac, tx);
        const keyFailures = await repository.countFailures('booking_key', keyHmac, since, tx);
        const clientFailures = await repository.countFailures('client', clientHmac, since, tx);
        if (keyFailures >= MAX_FAILURES_PER_KEY || clientFailures >= MAX_FAILURES_PER_CLIENT) {
          await audit(tx, 'patient_sign_in_refused_locked', input.bookingKey, {
            type: input.type,
            scope: keyFailures >= MAX_FAILURES_PER_KEY ? 'booking_key' : 'client',
            client: clientRef,
          });
          return { kind: 'locked' as const };
        }

        const subject = await repository.findSubject(input.bookingKey, input.type, tx);
        const matches =
          subject !== null &&
          subject.dateOfBirth === input.dateOfBirth &&
          (input.contactNumber === undefined || digitsOnly(subject.contactNumber) === input.contactNumber);
        if (!matches) {
          await repository.recordFailure('booking_key', keyHmac, 'dob', now, tx);
          await repository.recordFailure('client', clientHmac, 'dob', now, tx);
          await audit(tx, 'patient_sign_in_failed', input.bookingKey, {
            type: input.type,
            reason: subject === null ? 'unknown_key' : 'details_mismatch',
            keyFailures: keyFailures + 1,
            client: clientRef,
          });
          const keyLocked = keyFailures + 1 >= MAX_FAILURES_PER_KEY;
          const clientLocked = clientFailures + 1 >= MAX_FAILURES_PER_CLIENT;
          if (keyLocked || clientLocked) {
            await audit(tx, 'patient_sign_in_locked', input.bookingKey, {
              type: input.type,
              scope: keyLocked ? 'booking_key' : 'client',
              minutes: FAILURE_WINDOW_MS / 60_000,
              client: clientRef,
            });
            return { kind: 'locked' as const };
          }
          return { kind: 'failed' as const };
        }

        // This browser's earlier session (another booking, or a half-done sign-in) ends here.
        if (previousToken !== null) await repository.deleteSessionByTokenHash(sha256Hex(previousToken), tx);
        const otpRequired = settings.otpRequired && input.type === 'APPOINTMENT';
        const token = randomToken(32);
        await repository.insertSession(
          {
            tokenSha256: sha256Hex(token),
            bookingKey: input.bookingKey,
            type: input.type,
            stage: otpRequired ? 'dob_verified' : 'authenticated',
            shared,
            now,
            expiresAt: new Date(now.getTime() + SESSION_MAX_MS),
          },
          tx,
        );
        await audit(tx, otpRequired ? 'patient_sign_in_dob_verified' : 'patient_sign_in_succeeded', input.bookingKey, {
          type: input.type,
          otp: false,
          shared,
          client: clientRef,
        });
        return { kind: 'ok' as const, token, otpRequired, channels: channelsFor(subject, deps.smsConfigured) };
      });

      if (outcome.kind === 'locked') throw maxAttempts('dob', shared);
      if (outcome.kind === 'failed') throw new AppError('authentication_failed', 401, SIGN_IN_MESSAGES.authenticationFailed);
      return {
        token: outcome.token,
        response: {
          otpRequired: outcome.otpRequired,
          otpChannels: outcome.otpRequired ? outcome.channels : [],
          roleTranslations: ROLE_TRANSLATIONS,
        },
      };
    },

    /** Sends a new code to the contact on file (never to one the request names). */
    async sendOtp(channel: OtpChannel, context: RequestContext): Promise<SendOtpResponse> {
      const session = await pendingSession(context);
      const settings = await deps.settings();
      const key = await secret();
      const clientRef = hmac(key, `ip:${context.ip}`).slice(0, 16);

      const outcome = await db.transaction(async (tx) => {
        const now = clock.now();
        if (!(await repository.lockSession(session.id, tx))) return { kind: 'gone' as const };
        const subject = await repository.findSubject(session.bookingKey, session.type, tx);
        const destination =
          subject === null
            ? null
            : channel === 'EMAIL'
              ? subject.email
              : deps.smsConfigured && subject.contactNumber !== null
                ? normalisePhoneNumber(subject.contactNumber)
                : null;
        if (destination === null || destination === '') return { kind: 'unavailable' as const };

        const lastSentAt = await repository.latestOtpSentAt(session.bookingKey, tx);
        const waitMs = lastSentAt === null ? 0 : Date.parse(lastSentAt) + settings.otpResendSeconds * 1000 - now.getTime();
        const hourAgo = new Date(now.getTime() - 60 * 60_000);
        const reason =
          waitMs > 0
            ? 'resend_too_soon'
            : (await repository.countOtpsSince(session.bookingKey, hourAgo, tx)) >= OTP_MAX_SENDS_PER_HOUR
              ? 'hourly_limit'
              : (await repository.countCodesToDestination(channel, destination, hourAgo, tx)) >= OTP_MAX_SENDS_PER_DESTINATION_HOUR
                ? 'destination_limit'
                : channel === 'SMS' && (await repository.countCodeSmsSince(hourAgo, tx)) >= OTP_MAX_SMS_PER_HOUR
                  ? 'global_sms_limit'
                  : null;
        if (reason !== null) {
          await audit(tx, 'patient_otp_throttled', session.bookingKey, { channel, reason, client: clientRef });
          return { kind: 'throttled' as const, retryAfterSeconds: waitMs > 0 ? waitMs / 1000 : 60 * 60 };
        }

        const code = generateOtpCode();
        const salt = randomBytes(16).toString('hex');
        await repository.insertOtp(
          {
            sessionId: session.id,
            bookingKey: session.bookingKey,
            channel,
            salt,
            codeHmac: otpHmac(key, salt, code),
            now,
            expiresAt: new Date(now.getTime() + OTP_TTL_MS),
          },
          tx,
        );
        const text = { code, providerName: settings.providerName, validMinutes: OTP_TTL_MS / 60_000 };
        if (channel === 'EMAIL') {
          await mailOutbox.enqueue({ kind: 'otp_code', recipient: destination, ...otpMailText(text) }, now, tx);
        } else {
          await smsOutbox.enqueue({ kind: 'otp_code', recipient: destination, text: otpSmsText(text) }, now, tx);
        }
        await audit(tx, 'patient_otp_sent', session.bookingKey, { channel, client: clientRef });
        return { kind: 'sent' as const, destination: channel === 'EMAIL' ? maskEmail(destination) : maskPhone(destination) };
      });

      if (outcome.kind === 'gone') throw unauthorized(SESSION_REQUIRED_MESSAGE);
      if (outcome.kind === 'unavailable') throw badRequest('A code cannot be sent this way for this booking.');
      if (outcome.kind === 'throttled') throw otpThrottled(outcome.retryAfterSeconds);
      return { resendAfterSeconds: settings.otpResendSeconds, destination: outcome.destination };
    },

    /** Checks a code; answers the session's new cookie token when it is right. */
    async verifyOtp(code: string, context: RequestContext): Promise<{ token: string; bookingKey: string; type: SignInType }> {
      const session = await pendingSession(context);
      const key = await secret();
      const clientHmac = hmac(key, `ip:${context.ip}`);
      const clientRef = clientHmac.slice(0, 16);

      const outcome = await db.transaction(async (tx) => {
        const now = clock.now();
        await repository.lockSubject(clientHmac, tx);
        const clientFailures = await repository.countFailures('client', clientHmac, new Date(now.getTime() - FAILURE_WINDOW_MS), tx);
        if (clientFailures >= MAX_FAILURES_PER_CLIENT) {
          await audit(tx, 'patient_otp_refused_locked', session.bookingKey, { scope: 'client', client: clientRef });
          return { kind: 'locked' as const };
        }
        // The row lock makes parallel submits of one code take turns: exactly one can use it.
        const otp = await repository.latestOtpForUpdate(session.id, tx);
        if (otp !== null && otp.burntAt !== null) {
          await audit(tx, 'patient_otp_refused_locked', session.bookingKey, { scope: 'otp', client: clientRef });
          return { kind: 'locked' as const };
        }
        if (otp === null || otp.usedAt !== null || now.getTime() >= Date.parse(otp.expiresAt)) {
          await audit(tx, 'patient_otp_expired', session.bookingKey, {
            reason: otp === null ? 'none_sent' : otp.usedAt !== null ? 'used' : 'expired',
            client: clientRef,
          });
          return { kind: 'expired' as const };
        }
        const expected = Buffer.from(otp.codeHmac, 'hex');
        const given = Buffer.from(otpHmac(key, otp.salt, code), 'hex');
        if (!timingSafeEqual(expected, given)) {
          const wrong = otp.failedAttempts + 1;
          const burn = wrong >= OTP_MAX_WRONG;
          await repository.recordOtpFailure(otp.id, burn, now, tx);
          await repository.recordFailure('client', clientHmac, 'otp', now, tx);
          await audit(tx, 'patient_otp_failed', session.bookingKey, { channel: otp.channel, wrongTries: wrong, client: clientRef });
          const clientLocked = clientFailures + 1 >= MAX_FAILURES_PER_CLIENT;
          if (burn || clientLocked) {
            await audit(tx, 'patient_otp_locked', session.bookingKey, { scope: burn ? 'otp' : 'client', client: clientRef });
            return { kind: 'locked' as const };
          }
          return { kind: 'invalid' as const };
        }
        await repository.markOtpUsed(otp.id, now, tx);
        const token = randomToken(32);
        await repository.authenticateWithNewToken(session.id, sha256Hex(token), now, tx);
        await audit(tx, 'patient_sign_in_succeeded', session.bookingKey, {
          type: session.type,
          otp: true,
          channel: otp.channel,
          client: clientRef,
        });
        return { kind: 'ok' as const, token };
      });

      if (outcome.kind === 'locked') throw maxAttempts('otp', session.shared);
      if (outcome.kind === 'expired')
        throw new AppError('otp_expired', 401, 'This code has expired or was already used. Please ask for a new code.');
      if (outcome.kind === 'invalid') throw new AppError('otp_invalid', 401, 'The code is not correct.');
      return { token: outcome.token, bookingKey: session.bookingKey, type: session.type };
    },

    roleTranslations: (): string => ROLE_TRANSLATIONS,

    /** Ends the request's session (whatever its state); true when there was one. */
    async logout(context: RequestContext): Promise<boolean> {
      const token = readCookie(context.cookie, PATIENT_SESSION_COOKIE);
      if (token === null) return false;
      const tokenSha256 = sha256Hex(token);
      return db.transaction(async (tx) => {
        const row = await repository.findSessionByTokenHash(tokenSha256, tx);
        if (row === null) return false;
        await repository.deleteSessionByTokenHash(tokenSha256, tx);
        await audit(tx, 'patient_signed_out', row.bookingKey, { type: row.type });
        return true;
      });
    },

    /** Deletes ended sessions (with their codes) and attempt records older than a day. */
    async sweep(): Promise<{ sessions: number; failures: number }> {
      const now = clock.now();
      const sessions = await repository.deleteEndedSessions(now, new Date(now.getTime() - SESSION_IDLE_MS));
      const failures = await repository.deleteFailuresBefore(new Date(now.getTime() - SWEEP_KEEP_FAILURES_MS));
      return { sessions, failures };
    },
  };
}

export type PatientAccessService = ReturnType<typeof createPatientAccessService>;
