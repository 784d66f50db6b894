import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { OtpChannel, SendOtpResponse, SignInType } from '@contract/api/patient-access';
import { captchaRequired } from '../../platform/captcha/captcha';
import { AppError, badRequest, tooManyRequests, unauthorized } from '../../platform/errors';
import { randomToken } from '../../platform/ids';
import { maskEmail } from '../../platform/mask';
import { createOutboxRepository } from '../../platform/outbox/outbox-repository';
import { createSmsOutboxRepository, normalisePhoneNumber } from '../../platform/sms/sms-outbox-repository';
import { maxAttempts, slowDown, type AttemptLimits } from './attempt-limits';
import { maskPhone, otpMailMessage, otpSmsText } from './otp-messages';
import { SESSION_REQUIRED_MESSAGE } from './session-guard';
import type { Sessions } from './sessions';
import {
  generateOtpCode,
  OTP_MAX_SENDS_PER_DESTINATION_HOUR,
  OTP_MAX_SENDS_PER_HOUR,
  OTP_MAX_SMS_PER_HOUR,
  OTP_MAX_WRONG,
  OTP_TTL_MS,
  sha256Hex,
  type LiveSession,
  type PatientAccessServiceDeps,
  type RequestContext,
  type SignInBasics,
} from './sign-in-basics';
import type { SignInSubject } from './repository';
import type { Queryable } from '../../db/connection';

/**
 * One-time passwords (docs/rules/patient-access.md#one-time-password): six digits from
 * crypto.randomInt, kept as HMAC-SHA256(secret, salt:code), valid 10 minutes, used once, burnt
 * by the 5th wrong try; sent by e-mail or SMS through the outboxes, only to the contact on file;
 * resends throttled. A wrong code also counts against the booking key and the client address
 * (attempt-limits.ts), with the wrong dates of birth.
 */

/** 429 too_many_requests; details.retryAfterSeconds becomes the Retry-After header. */
export function otpThrottled(retryAfterSeconds: number): AppError {
  return tooManyRequests('Please wait before asking for another code.', retryAfterSeconds);
}

/**
 * What the attempt limits and the resend throttle count against: the booking, or for a
 * contact's session its share (dob-step.ts), kept in patient_otp.booking_key as share:<id>.
 */
function limitKeyOf(session: LiveSession): string {
  return session.shareId === null ? session.bookingKey : `share:${session.shareId}`;
}

export function createOneTimeCodes(deps: PatientAccessServiceDeps, basics: SignInBasics, sessions: Sessions, limits: AttemptLimits) {
  const { db, repository, clock } = deps;

  /** Where a code may go: the patient's contact on file, or for a contact's session the contact the patient shared with. */
  async function subjectOf(session: LiveSession, tx: Queryable): Promise<SignInSubject | null> {
    if (session.shareId === null) return repository.findSubject(session.bookingKey, session.type, tx);
    const share = await repository.shareContact(session.shareId, tx);
    if (share === null) return null;
    return {
      dateOfBirth: '',
      email: share.contactType === 'EMAIL' ? share.contactDetails : null,
      contactNumber: share.contactType === 'PHONE' ? share.contactDetails : null,
    };
  }
  const mailOutbox = createOutboxRepository(db);
  const smsOutbox = createSmsOutboxRepository(db);

  return {
    /** Sends a new code to the contact on file (never to one the request names). */
    async sendOtp(channel: OtpChannel, context: RequestContext): Promise<SendOtpResponse> {
      const session = await sessions.pendingSession(context);
      const settings = await deps.settings();
      const key = await basics.secret();
      const clientRef = basics.clientHmac(key, context.ip).slice(0, 16);

      const outcome = await db.transaction(async (tx) => {
        const now = clock.now();
        if (!(await repository.lockSession(session.id, tx))) return { kind: 'gone' as const };
        const subject = await subjectOf(session, tx);
        const destination =
          subject === null
            ? null
            : channel === 'EMAIL'
              ? subject.email
              : deps.smsConfigured && subject.contactNumber !== null
                ? normalisePhoneNumber(subject.contactNumber)
                : null;
        if (destination === null || destination === '') return { kind: 'unavailable' as const };

        // A contact's codes are counted on their own (per share), apart from the patient's.
        const throttleKey = limitKeyOf(session);
        const lastSentAt = await repository.latestOtpSentAt(throttleKey, tx);
        const waitMs = lastSentAt === null ? 0 : Date.parse(lastSentAt) + settings.otpResendSeconds * 1000 - now.getTime();
        const hourAgo = new Date(now.getTime() - 60 * 60_000);
        const reason =
          waitMs > 0
            ? 'resend_too_soon'
            : (await repository.countOtpsSince(throttleKey, hourAgo, tx)) >= OTP_MAX_SENDS_PER_HOUR
              ? 'hourly_limit'
              : (await repository.countCodesToDestination(channel, destination, hourAgo, tx)) >= OTP_MAX_SENDS_PER_DESTINATION_HOUR
                ? 'destination_limit'
                : channel === 'SMS' && (await repository.countCodeSmsSince(hourAgo, tx)) >= OTP_MAX_SMS_PER_HOUR
                  ? 'global_sms_limit'
                  : null;
        if (reason !== null) {
          await basics.audit(tx, 'patient_otp_throttled', session.bookingKey, { channel, reason, client: clientRef });
          return { kind: 'throttled' as const, retryAfterSeconds: waitMs > 0 ? waitMs / 1000 : 60 * 60 };
        }

        const code = generateOtpCode();
        const salt = randomBytes(16).toString('hex');
        await repository.insertOtp(
          {
            sessionId: session.id,
            bookingKey: throttleKey,
            channel,
            salt,
            codeHmac: basics.otpHmac(key, salt, code),
            now,
            expiresAt: new Date(now.getTime() + OTP_TTL_MS),
          },
          tx,
        );
        const text = { code, providerName: settings.providerName, validMinutes: OTP_TTL_MS / 60_000 };
        if (channel === 'EMAIL') {
          await mailOutbox.enqueue({ kind: 'otp_code', recipient: destination, ...(await otpMailMessage(tx, text)) }, now, tx);
        } else {
          await smsOutbox.enqueue({ kind: 'otp_code', recipient: destination, text: otpSmsText(text) }, now, tx);
        }
        await basics.audit(tx, 'patient_otp_sent', session.bookingKey, { channel, client: clientRef });
        return { kind: 'sent' as const, destination: channel === 'EMAIL' ? maskEmail(destination) : maskPhone(destination) };
      });

      if (outcome.kind === 'gone') throw unauthorized(SESSION_REQUIRED_MESSAGE);
      if (outcome.kind === 'unavailable') throw badRequest('A code cannot be sent this way for this booking.');
      if (outcome.kind === 'throttled') throw otpThrottled(outcome.retryAfterSeconds);
      return { resendAfterSeconds: settings.otpResendSeconds, destination: outcome.destination };
    },

    /** Checks a code; answers the session's new cookie token when it is right. */
    async verifyOtp(code: string, context: RequestContext): Promise<{ token: string; bookingKey: string; type: SignInType }> {
      const session = await sessions.pendingSession(context);
      const key = await basics.secret();
      const subjects = { keyHmac: basics.keyHmac(key, limitKeyOf(session)), clientHmac: basics.clientHmac(key, context.ip) };
      const clientRef = subjects.clientHmac.slice(0, 16);
      const captchaSolved = await limits.solvedCaptcha(subjects.clientHmac, context.captcha);
      // A burnt code: a new one may be asked for once the resend pause has passed (at most this long).
      const resendSeconds = (await deps.settings()).otpResendSeconds;

      const outcome = await db.transaction(async (tx) => {
        const now = clock.now();
        const gate = await limits.gate(tx, subjects, captchaSolved);
        if (gate.kind === 'key_locked') {
          await basics.audit(tx, 'patient_otp_refused_locked', session.bookingKey, { scope: 'booking_key', client: clientRef });
          return { kind: 'locked' as const, retryAfterSeconds: gate.retryAfterSeconds };
        }
        if (gate.kind !== 'open') {
          const action = gate.kind === 'slow_down' ? 'patient_otp_slowed_down' : 'patient_otp_captcha_required';
          await basics.audit(tx, action, session.bookingKey, { client: clientRef });
          return gate;
        }
        // The row lock makes parallel submits of one code take turns: exactly one can use it.
        const otp = await repository.latestOtpForUpdate(session.id, tx);
        if (otp !== null && otp.burntAt !== null) {
          await basics.audit(tx, 'patient_otp_refused_locked', session.bookingKey, { scope: 'otp', client: clientRef });
          return { kind: 'locked' as const, retryAfterSeconds: resendSeconds };
        }
        if (otp === null || otp.usedAt !== null || now.getTime() >= Date.parse(otp.expiresAt)) {
          await basics.audit(tx, 'patient_otp_expired', session.bookingKey, {
            reason: otp === null ? 'none_sent' : otp.usedAt !== null ? 'used' : 'expired',
            client: clientRef,
          });
          return { kind: 'expired' as const };
        }
        const expected = Buffer.from(otp.codeHmac, 'hex');
        const given = Buffer.from(basics.otpHmac(key, otp.salt, code), 'hex');
        if (!timingSafeEqual(expected, given)) {
          const wrong = otp.failedAttempts + 1;
          const burn = wrong >= OTP_MAX_WRONG;
          await repository.recordOtpFailure(otp.id, burn, now, tx);
          const keyLocked = await limits.recordFailure(tx, subjects, 'otp', gate.keyFailures);
          await basics.audit(tx, 'patient_otp_failed', session.bookingKey, {
            channel: otp.channel,
            wrongTries: wrong,
            keyFailures: gate.keyFailures + 1,
            client: clientRef,
          });
          if (keyLocked) {
            await basics.audit(tx, 'patient_otp_locked', session.bookingKey, { scope: 'booking_key', client: clientRef });
            return { kind: 'locked' as const, retryAfterSeconds: await limits.keyRetryAfter(subjects.keyHmac, now, tx) };
          }
          if (burn) {
            await basics.audit(tx, 'patient_otp_locked', session.bookingKey, { scope: 'otp', client: clientRef });
            return { kind: 'locked' as const, retryAfterSeconds: resendSeconds };
          }
          return { kind: 'invalid' as const };
        }
        await repository.markOtpUsed(otp.id, now, tx);
        const token = randomToken(32);
        await repository.authenticateWithNewToken(session.id, sha256Hex(token), now, tx);
        await basics.audit(tx, 'patient_sign_in_succeeded', session.bookingKey, {
          type: session.type,
          otp: true,
          channel: otp.channel,
          client: clientRef,
        });
        if (session.shareId !== null) {
          await repository.recordShareOpened(session.shareId, now, tx);
          await basics.audit(tx, 'result.share_opened', session.bookingKey, { share: session.shareId, client: clientRef });
        }
        return { kind: 'ok' as const, token };
      });

      switch (outcome.kind) {
        case 'locked':
          throw maxAttempts('otp', session.shared, outcome.retryAfterSeconds);
        case 'slow_down':
          throw slowDown(outcome.retryAfterSeconds);
        case 'captcha_required':
          throw captchaRequired();
        case 'expired':
          throw new AppError('otp_expired', 401, 'This code has expired or was already used. Please ask for a new code.');
        case 'invalid':
          throw new AppError('otp_invalid', 401, 'The code is not correct.');
        case 'ok':
          // A contact never learns the patient's booking key (it would open the booking itself).
          return { token: outcome.token, bookingKey: session.shareId === null ? session.bookingKey : '', type: session.type };
      }
    },
  };
}
