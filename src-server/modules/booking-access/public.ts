import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { StaffRole } from '@contract/api/staff-access';
import { requirePatientSession } from '../patient-access/public';
import type { BookingReceipts } from './receipt';

export { BOOKING_RECEIPT_COOKIE, createBookingReceipts, RECEIPT_HOURS, type BookingReceipts } from './receipt';
import { checkedStaffSessionOf, staffSessionIfAny, subjectRef } from '../staff-access/public';

/**
 * Who may read and act on a booking's records (attachments, check-in, the doctor search):
 * the patient signed in for that booking with a session of the route's type, or clinic staff
 * (staff or admin) signed in through the provider's identity provider. Routes declare the access
 * ('appointment-session-or-staff', ...; the checks are defineBookingAccessChecks') and read who it
 * was with bookingActorOf.
 */

export type BookingActor = { kind: 'patient' } | { kind: 'temporary' } | { kind: 'staff'; ref: string; username: string };

export const BOOKING_STAFF_ROLES: readonly StaffRole[] = ['staff', 'admin'];

const actors = new WeakMap<FastifyRequest, BookingActor>();

export function bookingActorOf(request: FastifyRequest): BookingActor {
  // A staff-only route's access check found the staff session itself (checkStaffAccess).
  const staff = checkedStaffSessionOf(request);
  const actor =
    actors.get(request) ?? (staff === null ? undefined : { kind: 'staff', ref: subjectRef(staff.subject), username: staff.username });
  if (actor === undefined) throw new Error('[booking-access] bookingActorOf: the route has no booking access check');
  return actor;
}

export function setBookingActor(request: FastifyRequest, actor: BookingActor): void {
  actors.set(request, actor);
}

/** The staff member behind the request when they hold staff or admin, else null. */
export async function staffActor(request: FastifyRequest): Promise<BookingActor | null> {
  const staff = await staffSessionIfAny(request);
  if (staff === null || !staff.roles.some((role) => BOOKING_STAFF_ROLES.includes(role))) return null;
  return { kind: 'staff', ref: subjectRef(staff.subject), username: staff.username };
}

export function bookingKeyOf(request: FastifyRequest): string {
  const params = request.params as { bookingKey?: unknown } | undefined;
  return typeof params?.bookingKey === 'string' ? params.bookingKey : '';
}

/** The booking's patient session of `type`, or staff; 401 otherwise. */
function patientOrStaff(type: 'APPOINTMENT' | 'BOOKING_REQUEST') {
  return async (request: FastifyRequest): Promise<void> => {
    const staff = await staffActor(request);
    if (staff !== null) {
      actors.set(request, staff);
      return;
    }
    await requirePatientSession(request, { bookingKey: bookingKeyOf(request), type });
    actors.set(request, { kind: 'patient' });
  };
}

/**
 * The check of the booking's confirmation and calendar file: staff, the browser that made the
 * booking (its receipt, receipt.ts), or the booking's APPOINTMENT session; the same 401 otherwise,
 * whether the key exists or not.
 */
export function receiptPatientOrStaff(receipts: BookingReceipts) {
  return async (request: FastifyRequest): Promise<void> => {
    if ((await staffActor(request)) !== null) return;
    if (await receipts.holds(request.headers.cookie, bookingKeyOf(request))) return;
    await requirePatientSession(request, { bookingKey: bookingKeyOf(request), type: 'APPOINTMENT' });
  };
}

/** The checks of the booking access classes (src-server/platform/route-access.ts). */
export function defineBookingAccessChecks(app: FastifyInstance, receipts: BookingReceipts): void {
  app.defineAccessCheck('appointment-session-or-staff', patientOrStaff('APPOINTMENT'));
  app.defineAccessCheck('booking-request-session-or-staff', patientOrStaff('BOOKING_REQUEST'));
  app.defineAccessCheck('booking-receipt-or-appointment-session-or-staff', receiptPatientOrStaff(receipts));
}
