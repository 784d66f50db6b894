import type { FastifyRequest } from 'fastify';
import { STAFF_SESSION_COOKIE } from '@contract/api/staff-access';
import { readCookie } from '../patient-access/public';
import type { StaffSession } from './session-guard';

/** What other modules may use of staff-access: the staff session guard their routes run first. */
export {
  requireStaffSession,
  staffRoute,
  staffSessionOf,
  staffSessionWith,
  STAFF_ROLE_REQUIRED_MESSAGE,
  STAFF_SESSION_REQUIRED_MESSAGE,
  type StaffSession,
} from './session-guard';
export { subjectRef } from './service';

/**
 * The request's live staff session, or null: for a route anyone may call whose answer a staff
 * session changes (a booking on a patient's behalf). Never refuses and writes no audit row; a
 * route only staff may call uses requireStaffSession or staffRoute instead.
 */
export async function staffSessionIfAny(request: FastifyRequest): Promise<StaffSession | null> {
  const resolver = request.server.staffSessions;
  if (resolver === undefined) return null;
  return resolver.current(readCookie(request.headers.cookie, STAFF_SESSION_COOKIE));
}
