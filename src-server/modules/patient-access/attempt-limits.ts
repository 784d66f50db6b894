import type { MaxAttemptsDetails } from '@contract/api/patient-access';
import type { Queryable } from '../../db/connection';
import type { Captcha } from '../../platform/captcha/captcha';
import type { Clock } from '../../platform/clock';
import { tooManyRequests, type AppError } from '../../platform/errors';
import type { PatientAccessRepository } from './repository';

/**
 * Attempt limits of the date-of-birth and one-time-code steps (docs/rules/patient-access.md#attempts).
 *
 * - Per booking key: 5 failures (wrong dates of birth and wrong codes together) in 15 minutes
 *   lock the booking, even for the right answer, until the oldest of them leaves the window.
 * - Per client address: many patients share one (a clinic, a hospital, a load balancer), so an
 *   address is never locked out. Past 20 failures in 15 minutes each attempt from it needs a
 *   solved proof-of-work (403 captcha_required otherwise, the answer not looked at) and must wait
 *   a growing time since the address's latest failure: 2 s per failure past the threshold, at
 *   most 30 s (429 too_many_requests with Retry-After). A right answer with a solved check still
 *   signs in.
 *
 * Attempts on one key and on one address take turns (advisory locks, always key first), so
 * parallel guesses cannot slip past a limit.
 */

export const FAILURE_WINDOW_MS = 15 * 60_000;
export const MAX_FAILURES_PER_KEY = 5;
/** Failures from one client address in the window after which its attempts need a proof-of-work and slow down. */
export const MAX_FAILURES_PER_CLIENT = 20;
/** Wait asked per failure past MAX_FAILURES_PER_CLIENT, counted from the address's latest failure. */
export const CLIENT_SLOWDOWN_STEP_SECONDS = 2;
/** The longest wait asked of one address. */
export const CLIENT_SLOWDOWN_MAX_SECONDS = 30;

const TOO_MANY_ATTEMPTS = 'Too many attempts. Please try again later.';

/** 429 max_attempts_reached: details name the deny page's message and when to try again (a locked key's end, or a new code's). */
export function maxAttempts(stage: 'dob' | 'otp', shared: boolean, retryAfterSeconds: number): AppError {
  const details: Omit<MaxAttemptsDetails, 'retryAfterSeconds'> = {
    maxAttempts: shared ? 'max_attempts_reached_shared' : stage === 'dob' ? 'max_attempts_reached' : 'max_attempts_reached_results',
  };
  return tooManyRequests(TOO_MANY_ATTEMPTS, retryAfterSeconds, { code: 'max_attempts_reached', details });
}

/** 429 too_many_requests for an address that must slow down; details.retryAfterSeconds becomes Retry-After. */
export function slowDown(retryAfterSeconds: number): AppError {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  return tooManyRequests(`Please wait ${seconds} seconds and try again.`, seconds);
}

/** Seconds an address with `failures` in the window must still wait after its latest failure (0: it may try now). */
export function clientWaitSeconds(failures: number, latestFailureAt: string | null, now: Date): number {
  if (failures < MAX_FAILURES_PER_CLIENT || latestFailureAt === null) return 0;
  const required = Math.min(CLIENT_SLOWDOWN_MAX_SECONDS, CLIENT_SLOWDOWN_STEP_SECONDS * (failures - MAX_FAILURES_PER_CLIENT + 1));
  const remainingMs = Date.parse(latestFailureAt) + required * 1000 - now.getTime();
  return remainingMs > 0 ? Math.ceil(remainingMs / 1000) : 0;
}

/** The attempt's subjects: HMACs of the booking key and of the client address. */
export interface AttemptSubjects {
  keyHmac: string;
  clientHmac: string;
}

export type AttemptGate =
  | { kind: 'key_locked'; retryAfterSeconds: number }
  | { kind: 'slow_down'; retryAfterSeconds: number }
  | { kind: 'captcha_required' }
  | { kind: 'open'; keyFailures: number; clientFailures: number };

export function createAttemptLimits(deps: { repository: PatientAccessRepository; clock: Clock; captcha: Captcha }) {
  const { repository, clock } = deps;
  const since = (now: Date): Date => new Date(now.getTime() - FAILURE_WINDOW_MS);

  /** Seconds until the oldest counted failure of the key leaves the window (at least 1). */
  async function keyRetryAfter(keyHmac: string, now: Date, tx: Queryable): Promise<number> {
    const span = await repository.failureSpan('booking_key', keyHmac, since(now), tx);
    const opensAt = span.oldest === null ? now.getTime() : Date.parse(span.oldest) + FAILURE_WINDOW_MS;
    return Math.max(1, Math.ceil((opensAt - now.getTime()) / 1000));
  }

  return {
    keyRetryAfter,

    /**
     * Before the attempt's transaction (the check uses the database itself): whether the request
     * carries a solved proof-of-work, looked at (and used up) only when the address is past its
     * threshold and may try now, so a request that is refused anyway does not spend it.
     */
    async solvedCaptcha(clientHmac: string, header: string | string[] | undefined): Promise<boolean> {
      if (header === undefined) return false;
      const now = clock.now();
      const span = await repository.failureSpan('client', clientHmac, since(now));
      if (span.count < MAX_FAILURES_PER_CLIENT || clientWaitSeconds(span.count, span.latest, now) > 0) return false;
      return deps.captcha.verify(header);
    },

    /** Inside the attempt's transaction: takes the subjects' locks and says whether the answer may be looked at. */
    async gate(tx: Queryable, subjects: AttemptSubjects, captchaSolved: boolean): Promise<AttemptGate> {
      const now = clock.now();
      await repository.lockSubject(subjects.keyHmac, tx);
      await repository.lockSubject(subjects.clientHmac, tx);
      const key = await repository.failureSpan('booking_key', subjects.keyHmac, since(now), tx);
      if (key.count >= MAX_FAILURES_PER_KEY)
        return { kind: 'key_locked', retryAfterSeconds: await keyRetryAfter(subjects.keyHmac, now, tx) };
      const client = await repository.failureSpan('client', subjects.clientHmac, since(now), tx);
      const wait = clientWaitSeconds(client.count, client.latest, now);
      if (wait > 0) return { kind: 'slow_down', retryAfterSeconds: wait };
      if (client.count >= MAX_FAILURES_PER_CLIENT && !captchaSolved) return { kind: 'captcha_required' };
      return { kind: 'open', keyFailures: key.count, clientFailures: client.count };
    },

    /** Counts a wrong answer against the key and the address; true when it locks the key. */
    async recordFailure(tx: Queryable, subjects: AttemptSubjects, stage: 'dob' | 'otp', keyFailuresBefore: number): Promise<boolean> {
      const now = clock.now();
      await repository.recordFailure('booking_key', subjects.keyHmac, stage, now, tx);
      await repository.recordFailure('client', subjects.clientHmac, stage, now, tx);
      return keyFailuresBefore + 1 >= MAX_FAILURES_PER_KEY;
    },
  };
}

export type AttemptLimits = ReturnType<typeof createAttemptLimits>;
