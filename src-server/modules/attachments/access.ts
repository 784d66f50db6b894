import type { FastifyRequest } from 'fastify';
import { forbidden } from '../../platform/errors';
import { BOOKING_STAFF_ROLES, bookingKeyOf, setBookingActor, staffActor } from '../booking-access/public';
import { requireStaffSession, staffSessionIfAny, subjectRef } from '../staff-access/public';

/**
 * Who may touch a booking's attachments (docs/rules/attachments.md#who-may-do-what):
 * - read and upload: the patient signed in for that booking, or staff (staff, admin);
 * - delete, mark imported, override a referral warning: staff (staff, admin) only; a patient
 *   session gets 403 (patients never delete), no session 401;
 * - under a temporary booking key: whoever holds the key (checked by the service: 404 when it is
 *   unknown or expired), or staff.
 */

export const ATTACHMENT_STAFF_ROLES = BOOKING_STAFF_ROLES;
export const STAFF_ONLY_MESSAGE = 'Only clinic staff can do this.';

export { bookingActorOf as actorOf, patientOrStaff } from '../booking-access/public';

/** preValidation: the holder of a temporary key (the service checks it), or staff. */
export async function temporaryKeyHolder(request: FastifyRequest): Promise<void> {
  setBookingActor(request, (await staffActor(request)) ?? { kind: 'temporary' });
}

/** preValidation: staff with staff or admin; a patient session is refused with 403, no session with 401. */
export async function staffOnly(request: FastifyRequest): Promise<void> {
  const patient = await request.server.patientSessions?.current(request);
  if (patient != null && (await staffSessionIfAny(request)) === null) {
    await request.server.securityAudit.refused(request, { reason: 'attachment_staff_only', bookingKey: bookingKeyOf(request) });
    throw forbidden(STAFF_ONLY_MESSAGE);
  }
  const staff = await requireStaffSession(request, { anyOf: ATTACHMENT_STAFF_ROLES });
  setBookingActor(request, { kind: 'staff', ref: subjectRef(staff.subject), username: staff.username });
}
