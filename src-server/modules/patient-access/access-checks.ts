import type { FastifyInstance, FastifyRequest } from 'fastify';
import { RESULT_SIGN_IN_TYPES, type SignInType } from '@contract/api/patient-access';
import { anySessionOf, refuseSession, requirePatientSession, requireSharedSession, type PatientSession } from './session-guard';

/**
 * The checks of the patient session access classes (src-server/platform/route-access.ts), which
 * the one access hook runs before the body is read. A session check for a booking compares the
 * session with the `:bookingKey` in the path; a session for another booking gets the same 401 as
 * none. The handler reads the session it found with patientSessionOf(request).
 */

const checked = new WeakMap<FastifyRequest, PatientSession>();
const shared = new WeakMap<FastifyRequest, PatientSession & { shareId: string }>();

/** The patient session the route's access check found (throws when the route has none: a programming error). */
export function patientSessionOf(request: FastifyRequest): PatientSession {
  const session = checked.get(request);
  if (session === undefined) throw new Error('[patient-access] patientSessionOf: the route checks no patient session');
  return session;
}

/** The contact's session the shared-session check found. */
export function sharedSessionOf(request: FastifyRequest): PatientSession & { shareId: string } {
  const session = shared.get(request);
  if (session === undefined) throw new Error('[patient-access] sharedSessionOf: the route checks no shared session');
  return session;
}

function bookingKeyParam(request: FastifyRequest): string | null {
  const params = request.params as { bookingKey?: unknown } | undefined;
  return typeof params?.bookingKey === 'string' ? params.bookingKey : null;
}

/**
 * The fully signed-in session of `type` for the booking in the path. A path that names something
 * else (an appointment's slug) needs a session of `type` for any booking, and its handler checks
 * that the thing named is the session's booking's.
 */
export function bookingSessionCheck(type: SignInType | readonly SignInType[]) {
  return async (request: FastifyRequest): Promise<void> => {
    const bookingKey = bookingKeyParam(request);
    if (bookingKey === null && typeof type === 'string') return anySessionOf(type)(request);
    if (bookingKey === null) throw await refuseSession(request, { reason: 'no_booking_key' });
    checked.set(request, await requirePatientSession(request, { bookingKey, type }));
  };
}

export function definePatientAccessChecks(app: FastifyInstance): void {
  // A sign-in under way: the session of the date-of-birth step, its code not yet given.
  app.defineAccessCheck('sign-in-session', async (request) => {
    const session = await request.server.patientSessions?.current(request);
    if (session?.stage !== 'dob_verified') {
      throw await refuseSession(request, { reason: session == null ? 'no_session' : 'sign_in_finished' });
    }
  });
  app.defineAccessCheck('appointment-session', bookingSessionCheck('APPOINTMENT'));
  app.defineAccessCheck('booking-request-session', bookingSessionCheck('BOOKING_REQUEST'));
  // One results sign-in per visit: the e-mail's result page and the patient portal accept each other's session.
  app.defineAccessCheck('results-session', bookingSessionCheck(RESULT_SIGN_IN_TYPES));
  app.defineAccessCheck('portal-session', bookingSessionCheck('PATIENT_PORTAL'));
  app.defineAccessCheck('shared-session', async (request) => {
    shared.set(request, await requireSharedSession(request));
  });
  // Any fully signed-in session, a contact's too (the keep-alive ping).
  app.defineAccessCheck('patient-session', async (request) => {
    const session = await request.server.patientSessions?.current(request);
    if (session?.stage !== 'authenticated') {
      throw await refuseSession(request, { reason: session == null ? 'no_session' : 'sign_in_unfinished' });
    }
  });
}
