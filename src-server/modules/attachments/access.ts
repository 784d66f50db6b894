import type { FastifyRequest } from 'fastify';
import { BOOKING_STAFF_ROLES, setBookingActor, staffActor } from '../booking-access/public';

/**
 * Who may touch a booking's attachments (docs/rules/attachments.md#who-may-do-what; each route
 * declares it, and the access hook checks it, src-server/platform/route-access.ts):
 * - read and upload: the patient signed in for that booking, or staff (staff, admin);
 * - delete, mark imported, override a referral warning: staff (staff, admin) only; a patient
 *   session gets 403 (patients never delete), no session 401;
 * - under a temporary booking key: whoever holds the key (checked by the service: 404 when it is
 *   unknown or expired), or staff.
 */

export const ATTACHMENT_STAFF_ROLES = BOOKING_STAFF_ROLES;

export { bookingActorOf as actorOf } from '../booking-access/public';

/** preValidation of the routes under a temporary key (open to anyone): who is calling, the key's holder or staff. */
export async function temporaryKeyHolder(request: FastifyRequest): Promise<void> {
  setBookingActor(request, (await staffActor(request)) ?? { kind: 'temporary' });
}
