import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { DoctorSearchParamsSchema, DoctorSearchResponseSchema } from '@contract/api/referring-doctors';
import { OrganisationSearchQuerySchema, OrganisationSearchResponseSchema } from '@contract/api/booking-form-details';
import { ApiErrorBodySchema } from '@contract/errors';
import { errorAnswers } from '../../platform/errors';
import { addressWindowLimit, type AddressWindowDeps } from '../../platform/address-window-limit';
import { bookingActorOf } from '../booking-access/public';
import type { ReferringDoctorsService } from './service';

/** Thin routes (docs/server.md#module-shape): the booking's APPOINTMENT session or staff, then the service. */

const errors = errorAnswers(400, 401, 404, 503);
const NO_STORE = { 'cache-control': 'no-store' };

/** Organisation searches per client address per window: a patient types a few; a script walking the directory stops here. */
export const ORGANISATION_SEARCHES_PER_WINDOW = 60;
export const ORGANISATION_SEARCH_WINDOW_MS = 10 * 60_000;

export function registerReferringDoctorRoutes(app: FastifyInstance, service: ReferringDoctorsService, limitDeps: AddressWindowDeps): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const searches = addressWindowLimit({
    kind: 'practice_search',
    limit: ORGANISATION_SEARCHES_PER_WINDOW,
    windowMs: ORGANISATION_SEARCH_WINDOW_MS,
    message: 'Too many searches from this connection. Please type the practice name instead, or try again later.',
    deps: limitDeps,
  });
  app.jobs.every(60_000, 'referring-doctors.search-limit-sweep', () => searches.sweep());

  api.get(
    '/api/booking/referring-organisations',
    {
      config: { access: 'public' },
      schema: {
        tags: ['booking'],
        summary: 'Referring practices of the doctor directory matching the text (name and suburb only), best first, at most 10',
        description:
          'For the booking form; anyone may call it. The text is trimmed, its spaces collapsed and lower-cased, then must be 3 to 50 ' +
          `characters (else 400). At most ${ORGANISATION_SEARCHES_PER_WINDOW} searches per client address in ten minutes (else 429).`,
        querystring: OrganisationSearchQuerySchema,
        response: { 200: OrganisationSearchResponseSchema, 400: ApiErrorBodySchema, 429: ApiErrorBodySchema, 503: ApiErrorBodySchema },
      },
    },
    async (request, reply) => {
      await searches.take(request.ip);
      return reply.headers(NO_STORE).send(await service.practices(request.query.q));
    },
  );

  api.get(
    '/api/secured/appointments/:bookingKey/doctor_search/:text',
    {
      config: { access: 'appointment-session-or-staff' },
      // Before the text is validated: a caller without access gets 401 whatever it typed.
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
