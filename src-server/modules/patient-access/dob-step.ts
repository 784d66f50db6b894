import {
  isResultSignInType,
  PATIENT_SESSION_COOKIE,
  SIGN_IN_MESSAGES,
  type AuthenticateRequest,
  type AuthenticateResponse,
  type SignInType,
} from '@contract/api/patient-access';
import type { SharedSignInRequest } from '@contract/api/result-shares';
import type { Queryable } from '../../db/connection';
import { captchaRequired } from '../../platform/captcha/captcha';
import { AppError } from '../../platform/errors';
import { randomToken } from '../../platform/ids';
import { maxAttempts, slowDown, type AttemptLimits } from './attempt-limits';
import { SHARE_GONE_MESSAGES } from './session-guard';
import { readCookie } from './cookie';
import type { SignInSubject } from './repository';
import {
  channelsFor,
  digitsOnly,
  ROLE_TRANSLATIONS,
  sha256Hex,
  SESSION_MAX_MS,
  type PatientAccessServiceDeps,
  type RequestContext,
  type SignInBasics,
} from './sign-in-basics';

/**
 * The date-of-birth step (docs/rules/patient-access.md#sign-in): the date of birth (and, when
 * given, the contact number) against the booking's patient. A wrong answer and an unknown key
 * give the same 401 after the same queries. With the provider's otpRequired on (appointments and
 * booking requests alike), and always for the results types, the new session is only half way
 * until the one-time code is accepted.
 *
 * A contact opening a shared result (docs/rules/results.md#sharing) takes the same step with the
 * share link's token instead of a booking key: the patient's date of birth, then a code sent to
 * the contact's own address or phone. The attempt limits count per share, so a contact's
 * mistakes never lock the patient out of their own booking.
 */

/** Who is signing in to what, found inside the step's transaction. */
interface SignInTarget {
  /** What the attempt limits and the audit log name (hashed): the booking key, or share:<token sha256>. */
  limitKey: string;
  type: SignInType;
  shared: boolean;
  dateOfBirth: string;
  contactNumber?: string | undefined;
  /** The subject to check against, or null when the key or token is unknown. */
  find(tx: Queryable): Promise<{ subject: SignInSubject; bookingKey: string; shareId: string | null; type: SignInType } | null>;
}

const shareGone = (state: 'revoked' | 'expired'): AppError =>
  state === 'revoked'
    ? new AppError('share_revoked', 410, SHARE_GONE_MESSAGES.revoked)
    : new AppError('share_expired', 410, SHARE_GONE_MESSAGES.expired);

export function createDobStep(deps: PatientAccessServiceDeps, basics: SignInBasics, limits: AttemptLimits) {
  const { db, repository, clock } = deps;

  /**
   * Answers the new session's cookie token with the response; throws 401 authentication_failed,
   * 403 captcha_required, 429 too_many_requests (slow down) or 429 max_attempts_reached.
   */
  async function startSession(target: SignInTarget, context: RequestContext): Promise<{ token: string; response: AuthenticateResponse }> {
    const key = await basics.secret();
    const settings = await deps.settings();
    const subjects = { keyHmac: basics.keyHmac(key, target.limitKey), clientHmac: basics.clientHmac(key, context.ip) };
    const clientRef = subjects.clientHmac.slice(0, 16);
    const { shared } = target;
    const previousToken = readCookie(context.cookie, PATIENT_SESSION_COOKIE);
    const captchaSolved = await limits.solvedCaptcha(subjects.clientHmac, context.captcha);

    const outcome = await db.transaction(async (tx) => {
      const now = clock.now();
      const gate = await limits.gate(tx, subjects, captchaSolved);
      if (gate.kind !== 'open') {
        const action =
          gate.kind === 'key_locked'
            ? 'patient_sign_in_refused_locked'
            : gate.kind === 'slow_down'
              ? 'patient_sign_in_slowed_down'
              : 'patient_sign_in_captcha_required';
        await basics.audit(tx, action, target.limitKey, { type: target.type, client: clientRef });
        return gate;
      }

      const found = await target.find(tx);
      const { subject } = found ?? {};
      const matches =
        subject !== undefined &&
        subject.dateOfBirth === target.dateOfBirth &&
        (target.contactNumber === undefined || digitsOnly(subject.contactNumber) === target.contactNumber);
      if (found === null || !matches) {
        const keyLocked = await limits.recordFailure(tx, subjects, 'dob', gate.keyFailures);
        await basics.audit(tx, 'patient_sign_in_failed', target.limitKey, {
          type: target.type,
          reason: found === null ? 'unknown_key' : 'details_mismatch',
          keyFailures: gate.keyFailures + 1,
          client: clientRef,
        });
        if (keyLocked) {
          await basics.audit(tx, 'patient_sign_in_locked', target.limitKey, { type: target.type, scope: 'booking_key', client: clientRef });
          return { kind: 'key_locked' as const, retryAfterSeconds: await limits.keyRetryAfter(subjects.keyHmac, now, tx) };
        }
        return { kind: 'failed' as const };
      }

      // This browser's earlier session (another booking, or a half-done sign-in) ends here.
      if (previousToken !== null) await repository.deleteSessionByTokenHash(sha256Hex(previousToken), tx);
      // Results are the patient's health record: they always need the one-time code.
      const otpRequired = settings.otpRequired || isResultSignInType(found.type);
      const token = randomToken(32);
      await repository.insertSession(
        {
          tokenSha256: sha256Hex(token),
          bookingKey: found.bookingKey,
          type: found.type,
          stage: otpRequired ? 'dob_verified' : 'authenticated',
          shared,
          shareId: found.shareId,
          now,
          expiresAt: new Date(now.getTime() + SESSION_MAX_MS),
        },
        tx,
      );
      await basics.audit(tx, otpRequired ? 'patient_sign_in_dob_verified' : 'patient_sign_in_succeeded', found.bookingKey, {
        type: found.type,
        otp: false,
        shared,
        ...(found.shareId === null ? {} : { share: found.shareId }),
        client: clientRef,
      });
      return { kind: 'ok' as const, token, otpRequired, channels: channelsFor(found.subject, deps.smsConfigured) };
    });

    switch (outcome.kind) {
      case 'key_locked':
        throw maxAttempts('dob', shared, outcome.retryAfterSeconds);
      case 'slow_down':
        throw slowDown(outcome.retryAfterSeconds);
      case 'captcha_required':
        throw captchaRequired();
      case 'failed':
        throw new AppError('authentication_failed', 401, SIGN_IN_MESSAGES.authenticationFailed);
      case 'ok':
        return {
          token: outcome.token,
          response: {
            otpRequired: outcome.otpRequired,
            otpChannels: outcome.otpRequired ? outcome.channels : [],
            roleTranslations: ROLE_TRANSLATIONS,
          },
        };
    }
  }

  return {
    authenticate(input: AuthenticateRequest, context: RequestContext) {
      return startSession(
        {
          limitKey: input.bookingKey,
          type: input.type,
          shared: input.shared === true,
          dateOfBirth: input.dateOfBirth,
          contactNumber: input.contactNumber,
          find: async (tx) => {
            const subject = await repository.findSubject(input.bookingKey, input.type, tx);
            return subject === null ? null : { subject, bookingKey: input.bookingKey, shareId: null, type: input.type };
          },
        },
        context,
      );
    },

    /** A contact's sign-in with a share link: 410 share_revoked or share_expired once the share no longer stands. */
    async authenticateShared(input: SharedSignInRequest, context: RequestContext) {
      const tokenSha256 = sha256Hex(input.shareToken);
      const share = await repository.findShare(tokenSha256);
      if (share !== null && share.revokedAt !== null) throw shareGone('revoked');
      if (share !== null && Date.parse(share.expiresAt) <= clock.now().getTime()) throw shareGone('expired');
      return startSession(
        {
          limitKey: `share:${tokenSha256}`,
          type: share?.shareType === 'HISTORY' ? 'PATIENT_PORTAL' : 'APPOINTMENT_RESULTS',
          shared: true,
          dateOfBirth: input.dateOfBirth,
          find: async () =>
            share === null
              ? null
              : {
                  // The code goes to the contact the patient shared with, never to the patient.
                  subject: {
                    dateOfBirth: share.dateOfBirth,
                    email: share.contactType === 'EMAIL' ? share.contactDetails : null,
                    contactNumber: share.contactType === 'PHONE' ? share.contactDetails : null,
                  },
                  bookingKey: share.bookingKey,
                  shareId: share.id,
                  type: share.shareType === 'HISTORY' ? 'PATIENT_PORTAL' : 'APPOINTMENT_RESULTS',
                },
        },
        context,
      );
    },
  };
}
