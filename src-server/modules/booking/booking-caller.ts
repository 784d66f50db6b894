import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { PATIENT_SESSION_COOKIE } from '@contract/api/patient-access';
import { STAFF_BOOKING_ROLES, type StaffRole } from '@contract/api/staff-access';
import { readCookie } from '../patient-access/public';
import { staffSessionIfAny, subjectRef } from '../staff-access/public';

/**
 * Who books (docs/rules/booking.md#staff-bookings). `staffBooking` (booked on the patient's
 * behalf: the texts speak of "the patient", the booking names the staff member) and `pending`
 * (PENDING instead of BOOKED) are staff choices, honoured only for a live staff session with the
 * staff or admin role that asks for `staffBooking`. Everyone else books through the patient flow
 * and the flags are ignored; the audit log says who asked for them.
 */
export type BookingCaller =
  | {
      kind: 'patient';
      /** The audit actor: 'anonymous', the patient session (`session:<sha256 prefix of its cookie>`) or a staff person without the role. */
      actor: string;
      /** The client address as the security audit names it (an HMAC prefix). */
      clientRef: string;
      /** Set when a staff session without the staff or admin role asked. */
      staffRoles?: readonly StaffRole[];
    }
  | { kind: 'staff'; staffRef: string; subject: string; username: string }
  /** One of the provider's own systems (a RIS booking through the FHIR API): `client` is its client id. */
  | { kind: 'system'; client: string };

/** Who the audit log names as having asked. */
export function callerActor(caller: BookingCaller): string {
  if (caller.kind === 'staff') return caller.staffRef;
  return caller.kind === 'system' ? `fhir-client:${caller.client}` : caller.actor;
}

/** The roles that may book on a patient's behalf. */
export { STAFF_BOOKING_ROLES };

const sha256Prefix = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 16);

/** The live staff session of someone who may book for patients, or null. */
export async function staffBooker(request: FastifyRequest): Promise<{ subject: string; username: string; roles: StaffRole[] } | null> {
  const session = await staffSessionIfAny(request);
  return session !== null && session.roles.some((role) => STAFF_BOOKING_ROLES.includes(role)) ? session : null;
}

/**
 * The caller of a booking. The sessions are looked up only when the request asks for a staff
 * flag, so an ordinary booking costs nothing more; a staff member with the role who asks only
 * for `pending` (without `staffBooking`) gets the patient flow too.
 */
export async function bookingCaller(
  request: FastifyRequest,
  clientRef: string,
  flags: { staffBooking?: boolean | undefined; pending?: boolean | undefined },
): Promise<BookingCaller> {
  const anonymous: BookingCaller = { kind: 'patient', actor: 'anonymous', clientRef };
  if (flags.staffBooking !== true && flags.pending !== true) return anonymous;
  const staff = await staffSessionIfAny(request);
  if (staff !== null) {
    if (flags.staffBooking === true && staff.roles.some((role) => STAFF_BOOKING_ROLES.includes(role))) {
      return { kind: 'staff', staffRef: subjectRef(staff.subject), subject: staff.subject, username: staff.username };
    }
    return { kind: 'patient', actor: subjectRef(staff.subject), clientRef, staffRoles: staff.roles };
  }
  const patientCookie = readCookie(request.headers.cookie, PATIENT_SESSION_COOKIE);
  const patient = patientCookie === null ? null : await request.server.patientSessions?.current(request);
  if (patientCookie !== null && patient !== null && patient !== undefined) {
    return { kind: 'patient', actor: `session:${sha256Prefix(patientCookie)}`, clientRef };
  }
  return anonymous;
}
