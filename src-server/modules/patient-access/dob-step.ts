import {
  isResultSignInType,
  PATIENT_SESSION_COOKIE,
  SIGN_IN_MESSAGES,
  type AuthenticateRequest,
  type AuthenticateResponse,
} from '@contract/api/patient-access';
import { captchaRequired } from '../../platform/captcha/captcha';
import { AppError } from '../../platform/errors';
import { randomToken } from '../../platform/ids';
import { maxAttempts, slowDown, type AttemptLimits } from './attempt-limits';
import { readCookie } from './cookie';
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
 */
export function createDobStep(deps: PatientAccessServiceDeps, basics: SignInBasics, limits: AttemptLimits) {
  const { db, repository, clock } = deps;

  /**
   * Answers the new session's cookie token with the response; throws 401 authentication_failed,
   * 403 captcha_required, 429 too_many_requests (slow down) or 429 max_attempts_reached.
   */
  return async function authenticate(
    input: AuthenticateRequest,
    context: RequestContext,
  ): Promise<{ token: string; response: AuthenticateResponse }> {
    const key = await basics.secret();
    const settings = await deps.settings();
    const subjects = { keyHmac: basics.keyHmac(key, input.bookingKey), clientHmac: basics.clientHmac(key, context.ip) };
    const clientRef = subjects.clientHmac.slice(0, 16);
    const shared = input.shared === true;
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
        await basics.audit(tx, action, input.bookingKey, { type: input.type, client: clientRef });
        return gate;
      }

      const subject = await repository.findSubject(input.bookingKey, input.type, tx);
      const matches =
        subject !== null &&
        subject.dateOfBirth === input.dateOfBirth &&
        (input.contactNumber === undefined || digitsOnly(subject.contactNumber) === input.contactNumber);
      if (!matches) {
        const keyLocked = await limits.recordFailure(tx, subjects, 'dob', gate.keyFailures);
        await basics.audit(tx, 'patient_sign_in_failed', input.bookingKey, {
          type: input.type,
          reason: subject === null ? 'unknown_key' : 'details_mismatch',
          keyFailures: gate.keyFailures + 1,
          client: clientRef,
        });
        if (keyLocked) {
          await basics.audit(tx, 'patient_sign_in_locked', input.bookingKey, {
            type: input.type,
            scope: 'booking_key',
            client: clientRef,
          });
          return { kind: 'key_locked' as const, retryAfterSeconds: await limits.keyRetryAfter(subjects.keyHmac, now, tx) };
        }
        return { kind: 'failed' as const };
      }

      // This browser's earlier session (another booking, or a half-done sign-in) ends here.
      if (previousToken !== null) await repository.deleteSessionByTokenHash(sha256Hex(previousToken), tx);
      // Results are the patient's health record: they always need the one-time code.
      const otpRequired = settings.otpRequired || isResultSignInType(input.type);
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
      await basics.audit(tx, otpRequired ? 'patient_sign_in_dob_verified' : 'patient_sign_in_succeeded', input.bookingKey, {
        type: input.type,
        otp: false,
        shared,
        client: clientRef,
      });
      return { kind: 'ok' as const, token, otpRequired, channels: channelsFor(subject, deps.smsConfigured) };
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
  };
}
