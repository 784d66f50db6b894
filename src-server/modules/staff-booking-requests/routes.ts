import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { STAFF_BOOKING_ROLES } from '@contract/api/staff-access';
import {
  MarkBookingRequestHandledSchema,
  STAFF_BOOKING_REQUESTS_PATH,
  StaffBookingRequestListSchema,
  StaffBookingRequestParamsSchema,
} from '@contract/api/staff-booking-requests';
import { ApiErrorBodySchema } from '@contract/errors';
import { errorAnswers } from '../../platform/errors';
import { staffRoute, staffSessionOf, subjectRef } from '../staff-access/public';
import type { StaffBookingRequests } from './service';

const errors = errorAnswers(400, 401, 403, 503);

/** The booking team's queue of booking requests (docs/rules/booking.md#the-staff-queue). */
export function registerStaffBookingRequestRoutes(app: FastifyInstance, service: StaffBookingRequests): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  // Patients' details, payment and background answers and referrals: staff and admins, as the booking tools.
  const bookingTeam = staffRoute(STAFF_BOOKING_ROLES, ['staff-booking-requests']);

  api.get(
    STAFF_BOOKING_REQUESTS_PATH,
    bookingTeam({
      summary: 'The booking requests to arrange: open ones oldest first, then the latest handled or cancelled (staff, admin; audited)',
      response: { 200: StaffBookingRequestListSchema, ...errors },
    }),
    async (request, reply) => {
      const list = await service.list(subjectRef(staffSessionOf(request).subject));
      return reply.header('cache-control', 'no-store').send(list);
    },
  );

  api.post(
    `${STAFF_BOOKING_REQUESTS_PATH}/:bookingKey/handled`,
    bookingTeam({
      summary:
        'Marks a booking request handled (arranged), with an optional note (staff, admin; audited; 409 when already handled or cancelled)',
      params: StaffBookingRequestParamsSchema,
      body: MarkBookingRequestHandledSchema,
      response: { 204: z.null(), ...errors, 404: ApiErrorBodySchema, 409: ApiErrorBodySchema },
    }),
    async (request, reply) => {
      const session = staffSessionOf(request);
      await service.markHandled(
        { ref: subjectRef(session.subject), name: session.displayName ?? session.username },
        request.params.bookingKey,
        request.body,
      );
      return reply.code(204).send(null);
    },
  );
}
