import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { STAFF_BOOKING_ROLES } from '@contract/api/staff-access';
import { STAFF_APPOINTMENTS_PATH, StaffAppointmentListSchema, StaffAppointmentsQuerySchema } from '@contract/api/staff-appointments';
import { errorAnswers } from '../../platform/errors';
import { staffRoute, staffSessionOf, subjectRef } from '../staff-access/public';
import type { StaffAppointments } from './service';

/** GET /api/staff/appointments (docs/rules/staff-appointments.md): the front desk's confirmation list. */
export function registerStaffAppointmentRoutes(app: FastifyInstance, service: StaffAppointments): void {
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
}
