import { PATIENT_SESSION_COOKIE } from '@contract/api/patient-access';
import { unauthorized } from '../../platform/errors';
import { readCookie } from './cookie';
import {
  sha256Hex,
  SESSION_IDLE_MS,
  SWEEP_KEEP_FAILURES_MS,
  type LiveSession,
  type PatientAccessServiceDeps,
  type RequestContext,
  type SignInBasics,
} from './sign-in-basics';
import { SESSION_REQUIRED_MESSAGE } from './session-guard';

/**
 * Patient sessions (docs/rules/patient-access.md#sessions): the cookie token of which only the
 * sha256 is stored, ended after SESSION_IDLE_MS without a request and SESSION_MAX_MS after
 * sign-in at most; logout; the sweep of ended sessions and old attempt records.
 */
export function createSessions(deps: PatientAccessServiceDeps, basics: SignInBasics) {
  const { db, repository, clock } = deps;

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

  return {
    current,

    /** The session half way through sign-in (date of birth accepted, code not yet); 401 otherwise. */
    async pendingSession(context: RequestContext): Promise<LiveSession> {
      const session = await current(context);
      if (session?.stage !== 'dob_verified') throw unauthorized(SESSION_REQUIRED_MESSAGE);
      return session;
    },

    /** Ends the request's session (whatever its state); true when there was one. */
    async logout(context: RequestContext): Promise<boolean> {
      const token = readCookie(context.cookie, PATIENT_SESSION_COOKIE);
      if (token === null) return false;
      const tokenSha256 = sha256Hex(token);
      return db.transaction(async (tx) => {
        const row = await repository.findSessionByTokenHash(tokenSha256, tx);
        if (row === null) return false;
        await repository.deleteSessionByTokenHash(tokenSha256, tx);
        await basics.audit(tx, 'patient_signed_out', row.bookingKey, { type: row.type });
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

export type Sessions = ReturnType<typeof createSessions>;
