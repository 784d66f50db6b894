import type { FastifyRequest, FastifySchema } from 'fastify';
import type { SignInType } from '@contract/api/patient-access';
import { appError, unauthorized, type AppError } from '../../platform/errors';
import type { RouteAccess } from '../../platform/route-access';
import '../../platform/security-audit';

/**
 * The guard other modules call before they read or change a booking:
 *
 *   const session = await requirePatientSession(request, { bookingKey, type: 'APPOINTMENT' });
 *
 * It answers the signed-in session when the request's `__Host-portal_session` cookie names a live,
 * fully authenticated session for exactly that booking key and type, and otherwise throws
 * 401 unauthorized, with the same message whether the cookie is missing, expired, only half
 * way (OTP still needed) or for another booking, so it never tells whether another key exists.
 * Requests from another site's page never get here: the CSRF guard refuses them first
 * (src-server/platform/plugins/csrf-guard.ts).
 */

export interface PatientSession {
  id: string;
  bookingKey: string;
  type: SignInType;
  /** Signed in to see someone else's results ('accessing results of others'). */
  shared: boolean;
  /** A contact's session: the result share it was opened with (only requireSharedSession accepts it). */
  shareId: string | null;
  createdAt: string;
  expiresAt: string;
}

/** What registerPatientAccessRoutes installs on the server (app.patientSessions). */
export interface PatientSessionResolver {
  /** The request's live session (any stage), refreshing its idle timer; null when there is none. */
  current(request: FastifyRequest): Promise<(PatientSession & { stage: 'dob_verified' | 'authenticated' }) | null>;
  /** Whether a share still stands. */
  shareState(shareId: string): Promise<'live' | 'revoked' | 'expired'>;
}

declare module 'fastify' {
  interface FastifyInstance {
    patientSessions?: PatientSessionResolver;
  }
}

export const SESSION_REQUIRED_MESSAGE = 'Please sign in to see this booking.';
export const SHARE_GONE_MESSAGES = {
  revoked: 'The person who shared these results has withdrawn access.',
  expired: 'This shared link has expired.',
} as const;

/**
 * The one 401 of the guard, after the refusal is in the audit log (who, what, when, where; rate
 * limited; an audit failure never changes the answer): src-server/platform/security-audit.ts.
 */
export async function refuseSession(request: FastifyRequest, refusal: { reason: string; bookingKey?: unknown }): Promise<AppError> {
  await request.server.securityAudit.refused(request, { reason: `patient_session_${refusal.reason}`, bookingKey: refusal.bookingKey });
  return unauthorized(SESSION_REQUIRED_MESSAGE);
}

/**
 * @param options.signedOutIsNormal - the "am I signed in?" check: a browser without any session
 *   asking it is the ordinary start of a sign-in, not a refusal worth an audit row.
 */
export async function requirePatientSession(
  request: FastifyRequest,
  /** type: the session's type, or one of several (the results routes take both results types). */
  wanted: { bookingKey: string; type: SignInType | readonly SignInType[] },
  options: { signedOutIsNormal?: boolean } = {},
): Promise<PatientSession> {
  const resolver = request.server.patientSessions;
  if (resolver === undefined) throw new Error('[patient-access] requirePatientSession: the patient-access routes are not registered');
  const session = await resolver.current(request);
  if (session === null && options.signedOutIsNormal === true) throw unauthorized(SESSION_REQUIRED_MESSAGE);
  const types: readonly SignInType[] = typeof wanted.type === 'string' ? [wanted.type] : wanted.type;
  // A contact's session (a share) opens the shared results only (requireSharedSession), never the booking's routes.
  if (
    session === null ||
    session.stage !== 'authenticated' ||
    session.bookingKey !== wanted.bookingKey ||
    !types.includes(session.type) ||
    session.shareId !== null
  ) {
    throw await refuseSession(request, {
      reason:
        session === null
          ? 'no_session'
          : session.stage !== 'authenticated'
            ? 'sign_in_unfinished'
            : session.shareId !== null
              ? 'shared_session'
              : 'other_booking',
      bookingKey: wanted.bookingKey,
    });
  }
  return sessionOf(session);
}

function sessionOf(session: PatientSession): PatientSession {
  return {
    id: session.id,
    bookingKey: session.bookingKey,
    type: session.type,
    shared: session.shared,
    shareId: session.shareId,
    createdAt: session.createdAt,
    expiresAt: session.expiresAt,
  };
}

/**
 * The guard of the shared-results routes (docs/rules/results.md#sharing): a contact's fully
 * signed-in session whose share still stands. 401 without one; 410 share_revoked from the first
 * request after the patient revoked it, 410 share_expired once it has run out.
 */
export async function requireSharedSession(request: FastifyRequest): Promise<PatientSession & { shareId: string }> {
  const resolver = request.server.patientSessions;
  if (resolver === undefined) throw new Error('[patient-access] requireSharedSession: the patient-access routes are not registered');
  const session = await resolver.current(request);
  if (session === null || session.stage !== 'authenticated' || session.shareId === null) {
    throw await refuseSession(request, {
      reason: session === null ? 'no_session' : session.stage !== 'authenticated' ? 'sign_in_unfinished' : 'not_shared',
    });
  }
  const state = await resolver.shareState(session.shareId);
  if (state !== 'live') {
    await request.server.securityAudit.refused(request, { reason: `share_${state}` });
    throw state === 'revoked'
      ? appError('share_revoked', 410, SHARE_GONE_MESSAGES.revoked)
      : appError('share_expired', 410, SHARE_GONE_MESSAGES.expired);
  }
  return { ...sessionOf(session), shareId: session.shareId };
}

/**
 * The check of a route whose path names something other than a booking key (an appointment's
 * slug): the request must carry a fully authenticated session of `type` (for any
 * booking); the handler then checks, with requirePatientSession, that the thing named belongs to
 * the session's booking.
 */
export function anySessionOf(type: SignInType) {
  return async (request: FastifyRequest): Promise<void> => {
    const resolver = request.server.patientSessions;
    if (resolver === undefined) throw new Error('[patient-access] anySessionOf: the patient-access routes are not registered');
    const session = await resolver.current(request);
    if (session === null || session.stage !== 'authenticated' || session.type !== type || session.shareId !== null) {
      throw await refuseSession(request, {
        reason: session === null ? 'no_session' : session.stage !== 'authenticated' ? 'sign_in_unfinished' : 'other_type',
      });
    }
  };
}

/**
 * The options of a route for one signed-in booking (its `:bookingKey` param): the route declares
 * the session of `type` as its access (checked first, patient-access/access-checks.ts), and is
 * listed under `tags` in the OpenAPI document.
 *
 *   const signedIn = signedInRoute('APPOINTMENT', ['appointments']);
 *   api.get('/api/appointments/:bookingKey', signedIn({ summary, params, response }), handler);
 */
export function signedInRoute(type: keyof typeof SIGNED_IN_ACCESS, tags: string[]) {
  const access = SIGNED_IN_ACCESS[type];
  return <Schema extends FastifySchema>(schema: Schema) => ({ config: { access }, schema: { tags, ...schema } });
}

/** The access a signedInRoute declares, by the sign-in type. */
const SIGNED_IN_ACCESS = {
  APPOINTMENT: 'appointment-session',
  BOOKING_REQUEST: 'booking-request-session',
} as const satisfies Partial<Record<SignInType, RouteAccess>>;
