import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  BookingRequestParamsSchema,
  BookingRequestStatusChangeSchema,
  BookingRequestSummarySchema,
  ChatServiceEventSchema,
  ReferralParamsSchema,
} from '@contract/api/booking-requests';
import { z } from 'zod';
import { attachmentsBasePath } from '@contract/api/attachments';
import { ApiErrorBodySchema } from '@contract/errors';
import { errorAnswers, forbidden } from '../../platform/errors';
import '../../platform/security-audit';
import { signedInRoute } from '../patient-access/public';
import { bearerTokenOf, matchesTokenDigest } from '../../platform/api-tokens';
import type { BookingRequestsService } from './service';

/** Thin routes (docs/server.md#module-shape): session or staff check, schema from src-contract, call the service. */

const readErrors = errorAnswers(400, 401, 404, 503);

export function registerBookingRequestRoutes(
  app: FastifyInstance,
  service: BookingRequestsService,
  staffTokenDigests: readonly string[],
): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['booking-requests'];
  const signedIn = signedInRoute('BOOKING_REQUEST', tags);
  const noStore = { 'cache-control': 'no-store' };

  /** The staff token: Authorization: Bearer <token> whose sha256 is configured (STAFF_API_TOKEN_SHA256). */
  app.defineAccessCheck('staff-token', async (request: FastifyRequest): Promise<void> => {
    const token = bearerTokenOf(request.headers.authorization);
    if (token === null || !matchesTokenDigest(token, staffTokenDigests)) {
      // Audited by client and booking-key references only (never the token): src-server/platform/security-audit.ts.
      const params = request.params as { bookingKey?: unknown } | undefined;
      await request.server.securityAudit.refused(request, {
        reason: token === null ? 'staff_token_missing' : 'staff_token_wrong',
        bookingKey: params?.bookingKey,
      });
      throw forbidden('This operation is for staff with a valid API token.');
    }
  });

  api.get(
    '/api/booking-requests/:bookingKey',
    signedIn({
      summary: 'The booking request: exams, clinic, patient, referrals',
      params: BookingRequestParamsSchema,
      response: { 200: BookingRequestSummarySchema, ...readErrors },
    }),
    async (request, reply) => reply.headers(noStore).send(await service.summary(request.params.bookingKey)),
  );

  api.post(
    '/api/booking-requests/:bookingKey/cancel',
    signedIn({
      summary: 'Cancel the booking request (status CANCELED)',
      params: BookingRequestParamsSchema,
      response: { 200: BookingRequestSummarySchema, ...readErrors },
    }),
    async (request, reply) => reply.headers(noStore).send(await service.cancel(request.params.bookingKey)),
  );

  // The request's own session only: the page reports its chat-service conversation (docs/rules/chat.md#the-providers-chat-service).
  api.post(
    '/api/booking-requests/:bookingKey/chat-service',
    signedIn({
      summary: "The provider's chat service's conversation about the request started or ended (type CHAT; booked, or type PATIENT)",
      params: BookingRequestParamsSchema,
      body: ChatServiceEventSchema,
      response: { 200: BookingRequestSummarySchema, 409: ApiErrorBodySchema, ...readErrors },
    }),
    async (request, reply) => reply.headers(noStore).send(await service.chatServiceEvent(request.params.bookingKey, request.body)),
  );

  // Links from before referrals became attachments: the same file, now served by the attachments module.
  api.get(
    '/api/booking-requests/:bookingKey/referrals/:id/download',
    signedIn({
      summary: 'Moved: redirects to the attachment download',
      params: ReferralParamsSchema,
      response: { 308: z.null(), ...readErrors },
    }),
    async (request, reply) =>
      reply
        .header('cache-control', 'no-store')
        .redirect(
          `${attachmentsBasePath('booking_requests', request.params.bookingKey)}/${encodeURIComponent(request.params.id)}/download`,
          308,
        ),
  );

  api.put(
    '/api/booking-requests/:bookingKey/status',
    {
      config: { access: 'staff-token' },
      schema: {
        tags,
        summary: "Staff: set a booking request's status (Authorization: Bearer <staff token>)",
        params: BookingRequestParamsSchema,
        body: BookingRequestStatusChangeSchema,
        response: { 200: BookingRequestSummarySchema, 403: ApiErrorBodySchema, ...readErrors },
      },
    },
    async (request, reply) => reply.headers(noStore).send(await service.staffSetStatus(request.params.bookingKey, request.body.status)),
  );
}
