import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppointmentSummarySchema, BookingKeyParamsSchema } from '@contract/api/appointments';
import { errorAnswers } from '../../platform/errors';
import { staffActor } from '../booking-access/public';
import type { AppointmentsService } from './service';

/**
 * The booking's confirmation and its calendar file (docs/rules/booking.md#confirmation): the
 * browser that booked (its receipt), the booking's signed-in patient, or staff. Anyone else gets
 * the session guard's 401, the same for a key that does not exist.
 */
export function registerConfirmationRoutes(app: FastifyInstance, service: AppointmentsService): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['appointments'];
  const errors = errorAnswers(400, 401, 404, 503);

  api.get(
    '/api/appointments/:bookingKey/confirmation',
    {
      config: { access: 'booking-receipt-or-appointment-session-or-staff' },
      schema: {
        tags,
        summary: 'The booking as its confirmation shows it: the browser that booked it, its signed-in patient or staff',
        params: BookingKeyParamsSchema,
        response: { 200: AppointmentSummarySchema, ...errors },
      },
    },
    async (request, reply) => {
      const summary = await service.confirmation(request.params.bookingKey);
      // Insurance and ethnicity are for staff here: the booking browser's receipt may be a shared
      // computer's; the signed-in patient reads their own on the appointment page.
      const staff = (await staffActor(request)) !== null;
      return reply.header('cache-control', 'no-store').send({ ...summary, formDetails: staff ? summary.formDetails : null });
    },
  );

  api.get(
    '/api/appointments/:bookingKey/calendar.ics',
    {
      config: { access: 'booking-receipt-or-appointment-session-or-staff' },
      schema: {
        tags,
        summary: 'The coming appointments as an iCalendar file (RFC 5545) to add to a calendar',
        params: BookingKeyParamsSchema,
        produces: ['text/calendar'],
        response: { 200: z.string(), ...errors },
      },
    },
    async (request, reply) => {
      const file = await service.calendar(request.params.bookingKey);
      return reply
        .header('cache-control', 'no-store')
        .header('content-type', file.contentType)
        .header('content-disposition', `attachment; filename="${file.filename}"`)
        .send(file.content);
    },
  );
}
