import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { DoctorSearchParamsSchema, DoctorSearchResponseSchema } from '@contract/api/referring-doctors';
import { ApiErrorBodySchema } from '@contract/errors';
import { bookingActorOf, patientOrStaff } from '../booking-access/public';
import type { ReferringDoctorsService } from './service';

/** Thin routes (docs/server.md#module-shape): the booking's APPOINTMENT session or staff, then the service. */

const errors = { 400: ApiErrorBodySchema, 401: ApiErrorBodySchema, 404: ApiErrorBodySchema, 503: ApiErrorBodySchema };
const NO_STORE = { 'cache-control': 'no-store' };

export function registerReferringDoctorRoutes(app: FastifyInstance, service: ReferringDoctorsService): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    '/api/secured/appointments/:bookingKey/doctor_search/:text',
    {
      // Before the text is validated: a caller without access gets 401 whatever it typed.
      preValidation: patientOrStaff('APPOINTMENT'),
      schema: {
        tags: ['referring-doctors'],
        summary: 'Referring doctors matching the text (name, practice, city, postcode or provider number), best first, at most 20',
        description:
          'The text is trimmed, its spaces collapsed and lower-cased, then must be 3 to 50 characters (else 400). ' +
          "For the booking's APPOINTMENT session or staff (staff, admin).",
        params: DoctorSearchParamsSchema,
        response: { 200: DoctorSearchResponseSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply.headers(NO_STORE).send(await service.search(request.params.bookingKey, request.params.text, bookingActorOf(request))),
  );
}
