import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { BookingKeyParamsSchema } from '@contract/api/appointments';
import {
  WAITLIST_OFFER_ACCEPT_PATH,
  WAITLIST_OFFER_API_PATH,
  WAITLIST_OFFER_DECLINE_PATH,
  WaitlistOfferBodySchema,
  WaitlistOfferQuerySchema,
  WaitlistOfferViewSchema,
  WaitlistJoinSchema,
  WaitlistStatusSchema,
} from '@contract/api/waitlist';
import { errorAnswers } from '../../platform/errors';
import type { WaitlistService } from './service';

/**
 * Thin routes of the waiting list (docs/rules/waitlist.md): the booking's signed-in patient (or
 * the browser that booked it, or staff) joins or leaves it; an offer's signed link is the only credential of its page (GET only describes:
 * mail scanners open every link).
 */
export function registerWaitlistRoutes(app: FastifyInstance, service: WaitlistService): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['waitlist'];
  const noStore = { 'cache-control': 'no-store' };
  // The booking's patient, the browser that just booked it (its confirmation offers the list), or staff for a patient on the phone.
  const forBooking = <Schema extends object>(schema: Schema) => ({
    config: { access: 'booking-receipt-or-appointment-session-or-staff' as const },
    schema: { tags, ...schema },
  });
  const path = '/api/appointments/:bookingKey/waitlist';
  const answers = { 200: WaitlistStatusSchema, ...errorAnswers(400, 401, 404, 409, 503) };

  api.get(
    path,
    forBooking({ summary: 'Whether the booking waits for an earlier time', params: BookingKeyParamsSchema, response: answers }),
    async (request, reply) => reply.headers(noStore).send(await service.status(request.params.bookingKey)),
  );
  api.put(
    path,
    forBooking({
      summary: 'Wait for an earlier time at the same clinic, or any clinic of its region (idempotent; a change of choice keeps the place)',
      params: BookingKeyParamsSchema,
      body: WaitlistJoinSchema,
      response: answers,
    }),
    async (request, reply) => reply.headers(noStore).send(await service.join(request.params.bookingKey, request.body?.clinics ?? 'same')),
  );
  api.delete(
    path,
    forBooking({ summary: 'Stop waiting for an earlier time (idempotent)', params: BookingKeyParamsSchema, response: answers }),
    async (request, reply) => reply.headers(noStore).send(await service.leave(request.params.bookingKey)),
  );

  api.get(
    WAITLIST_OFFER_API_PATH,
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'The earlier time an offer link names, and where the offer stands; changes nothing',
        querystring: WaitlistOfferQuerySchema,
        response: { 200: WaitlistOfferViewSchema, ...errorAnswers(400, 503) },
      },
    },
    async (request, reply) => reply.headers(noStore).send(await service.view(request.query.token)),
  );
  const changes = [
    {
      url: WAITLIST_OFFER_ACCEPT_PATH,
      summary: 'Take the earlier time: the booking moves there (the first to accept gets it)',
      change: service.accept,
    },
    { url: WAITLIST_OFFER_DECLINE_PATH, summary: 'Keep the current time; the booking stays on the waiting list', change: service.decline },
  ];
  for (const { url, summary, change } of changes)
    api.post(
      url,
      {
        config: { access: 'public' },
        schema: {
          tags,
          summary,
          querystring: WaitlistOfferQuerySchema,
          body: WaitlistOfferBodySchema,
          response: { 200: WaitlistOfferViewSchema, ...errorAnswers(400, 409, 415, 503) },
        },
      },
      async (request, reply) => reply.headers(noStore).send(await change(request.query.token)),
    );
}
