import type { FastifyRequest } from 'fastify';
import type { StaffRole } from '@contract/api/staff-access';
import { forbidden } from '../../platform/errors';
import { requirePatientSession } from '../patient-access/public';
import { requireStaffSession, staffSessionIfAny, subjectRef } from '../staff-access/public';
import type { Actor } from './service';

/**
 * Who may touch a booking's attachments (docs/rules/attachments.md#who-may-do-what):
 * - read and upload: the patient signed in for that booking, or staff (staff, admin);
 * - delete, mark imported, override a referral warning: staff (staff, admin) only; a patient
 *   session gets 403 (patients never delete), no session 401;
 * - under a temporary booking key: whoever holds the key (checked by the service: 404 when it is
 *   unknown or expired), or staff.
 */

export const ATTACHMENT_STAFF_ROLES: readonly StaffRole[] = ['staff', 'admin'];
export const STAFF_ONLY_MESSAGE = 'Only clinic staff can do this.';

const actors = new WeakMap<FastifyRequest, Actor>();

export function actorOf(request: FastifyRequest): Actor {
  const actor = actors.get(request);
  if (actor === undefined) throw new Error('[attachments] actorOf: the route has no attachment access check');
  return actor;
}

async function staffActor(request: FastifyRequest): Promise<Actor | null> {
  const staff = await staffSessionIfAny(request);
  if (staff === null || !staff.roles.some((role) => ATTACHMENT_STAFF_ROLES.includes(role))) return null;
  return { kind: 'staff', ref: subjectRef(staff.subject), username: staff.username };
}

function bookingKeyOf(request: FastifyRequest): string {
  const params = request.params as { bookingKey?: unknown } | undefined;
  return typeof params?.bookingKey === 'string' ? params.bookingKey : '';
}

/** preValidation: the booking's patient session of `type`, or staff. */
export function patientOrStaff(type: 'APPOINTMENT' | 'BOOKING_REQUEST') {
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

/** preValidation: the holder of a temporary key (the service checks it), or staff. */
export async function temporaryKeyHolder(request: FastifyRequest): Promise<void> {
  actors.set(request, (await staffActor(request)) ?? { kind: 'temporary' });
}

/** preValidation: staff with staff or admin; a patient session is refused with 403, no session with 401. */
export async function staffOnly(request: FastifyRequest): Promise<void> {
  const patient = await request.server.patientSessions?.current(request);
  if (patient != null && (await staffSessionIfAny(request)) === null) {
    await request.server.securityAudit.refused(request, { reason: 'attachment_staff_only', bookingKey: bookingKeyOf(request) });
    throw forbidden(STAFF_ONLY_MESSAGE);
  }
  const staff = await requireStaffSession(request, { anyOf: ATTACHMENT_STAFF_ROLES });
  actors.set(request, { kind: 'staff', ref: subjectRef(staff.subject), username: staff.username });
}
