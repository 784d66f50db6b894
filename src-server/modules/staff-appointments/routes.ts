import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { STAFF_BOOKING_ROLES } from '@contract/api/staff-access';
import {
  STAFF_APPOINTMENTS_PATH,
  STAFF_REMINDERS_PATH,
  StaffAppointmentListSchema,
  StaffAppointmentsQuerySchema,
  StaffReminderParamsSchema,
  StaffReminderSentSchema,
  type StaffReminderSent,
} from '@contract/api/staff-appointments';
import { errorAnswers } from '../../platform/errors';
import { staffRoute, staffSessionOf, subjectRef } from '../staff-access/public';
import type { StaffAppointments } from './service';

/** The front desk's confirmation list (docs/rules/staff-appointments.md) and its "Send reminder". */
export function registerStaffAppointmentRoutes(
  app: FastifyInstance,
  service: StaffAppointments,
  /** The appointments' reminder, sent now (reminders.ts remindNow). */
  remindNow: (appointmentId: string) => Promise<StaffReminderSent>,
): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  // Patients' names and numbers: staff and admins, as the other booking tools.
  const frontDesk = staffRoute(STAFF_BOOKING_ROLES, ['appointments']);
  api.get(
    STAFF_APPOINTMENTS_PATH,
    frontDesk({
      summary:
        "A clinic's appointments on one day of its calendar (default: the first clinic, tomorrow), in time order, with how " +
        'each patient answered the reminder (staff, admin; audited; 404 for an unknown clinic)',
      querystring: StaffAppointmentsQuerySchema,
      response: { 200: StaffAppointmentListSchema, ...errorAnswers(400, 401, 403, 404) },
    }),
    async (request, reply) => {
      const list = await service.list(subjectRef(staffSessionOf(request).subject), request.query);
      // Personal data: never kept by a cache.
      return reply.header('cache-control', 'no-store').send(list);
    },
  );

  api.post(
    `${STAFF_REMINDERS_PATH}/:appointmentId`,
    frontDesk({
      summary: "Send the appointment's reminder now, by e-mail and SMS where they go (staff, admin; audited; 409 once it has started)",
      params: StaffReminderParamsSchema,
      response: { 200: StaffReminderSentSchema, ...errorAnswers(400, 401, 403, 404, 409) },
    }),
    async (request, reply) => {
      const sent = await remindNow(request.params.appointmentId);
      await service.recordReminderSent(subjectRef(staffSessionOf(request).subject), request.params.appointmentId, sent);
      return reply.header('cache-control', 'no-store').send(sent);
    },
  );
}
