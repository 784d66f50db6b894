import { createAttemptLimits } from './attempt-limits';
import { createDobStep } from './dob-step';
import { createOneTimeCodes } from './one-time-codes';
import { createSessions } from './sessions';
import { createSignInBasics, ROLE_TRANSLATIONS, type PatientAccessServiceDeps } from './sign-in-basics';

/**
 * Patient sign-in (docs/rules/patient-access.md), put together from its parts:
 * - sessions.ts: the session cookie's server side, idle and absolute ends, logout, sweep;
 * - dob-step.ts: the date-of-birth step;
 * - one-time-codes.ts: sending and checking one-time passwords;
 * - attempt-limits.ts: failures per booking key (lock) and per client address (proof-of-work and slow-down);
 * - sign-in-basics.ts: the secret, HMACs, audit entries and constants they share.
 * Every success, failure, lock, send and check goes to audit_log, naming the booking key only by
 * a sha256 prefix and the client only by an HMAC prefix.
 */

export {
  generateOtpCode,
  keyRef,
  OTP_MAX_SENDS_PER_DESTINATION_HOUR,
  OTP_MAX_SENDS_PER_HOUR,
  OTP_MAX_SMS_PER_HOUR,
  OTP_MAX_WRONG,
  OTP_TTL_MS,
  SESSION_IDLE_MS,
  SESSION_MAX_MS,
  sha256Hex,
  type LiveSession,
  type PatientAccessServiceDeps,
  type RequestContext,
  type SignInSettings,
} from './sign-in-basics';
export {
  CLIENT_SLOWDOWN_MAX_SECONDS,
  CLIENT_SLOWDOWN_STEP_SECONDS,
  FAILURE_WINDOW_MS,
  MAX_FAILURES_PER_CLIENT,
  MAX_FAILURES_PER_KEY,
} from './attempt-limits';
export { otpThrottled } from './one-time-codes';

export function createPatientAccessService(deps: PatientAccessServiceDeps) {
  const basics = createSignInBasics(deps);
  const limits = createAttemptLimits(deps);
  const sessions = createSessions(deps, basics);
  const codes = createOneTimeCodes(deps, basics, sessions, limits);
  const dobStep = createDobStep(deps, basics, limits);
  return {
    current: sessions.current,
    authenticate: dobStep.authenticate,
    authenticateShared: dobStep.authenticateShared,
    /** Whether the share of a contact's session still stands (checked at each of its requests). */
    shareState: (shareId: string) => deps.repository.shareState(shareId, deps.clock.now()),
    sendOtp: codes.sendOtp,
    verifyOtp: codes.verifyOtp,
    roleTranslations: (): string => ROLE_TRANSLATIONS,
    logout: sessions.logout,
    sweep: sessions.sweep,
  };
}

export type PatientAccessService = ReturnType<typeof createPatientAccessService>;
