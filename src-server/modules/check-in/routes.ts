import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { CheckInFormSchema, CheckInParamsSchema, CheckInStatusSchema, type CheckInStatus } from '@contract/api/check-in';
import { CheckInChecklistSchema } from '@contract/api/check-in-checklist';
import { errorAnswers } from '../../platform/errors';
import { bookingActorOf } from '../booking-access/public';
import type { CheckInService } from './service';

/**
 * Thin routes (docs/server.md#module-shape) for digital check-in (src-contract/api/check-in.ts).
 * Who: the booking's APPOINTMENT session or staff (booking-access); 404 for another booking's
 * appointment.
 */

const errors = errorAnswers(400, 401, 404, 409);
const NO_STORE = { 'cache-control': 'no-store' };
const BASE = '/api/secured/appointments/:bookingKey/check-in/:appointmentSlug';

/** A check-in step, from the browser or a kiosk, is taken on (202) with the status to poll, which no cache keeps. */
export function sendCheckInAccepted(reply: FastifyReply, status: CheckInStatus): FastifyReply {
  return reply.code(202).headers(NO_STORE).send(status);
}

export function registerCheckInRoutes(app: FastifyInstance, service: CheckInService): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const open = { config: { access: 'appointment-session-or-staff' as const } };
  const tags = ['check-in'];

  api.get(
    BASE,
    {
      ...open,
      schema: {
        tags,
        summary: 'Check-in status: enabled, the window, readiness, and where the hand-off to the clinic stands (polled)',
        params: CheckInParamsSchema,
        response: { 200: CheckInStatusSchema, ...errors },
      },
    },
    async (request, reply) => reply.headers(NO_STORE).send(await service.status(request.params.bookingKey, request.params.appointmentSlug)),
  );

  api.get(
    `${BASE}/checklist`,
    {
      ...open,
      schema: {
        tags,
        summary:
          'What is still to do before the scan: unsigned consent forms, a missing referral, documents to bring, preparation with times',
        params: CheckInParamsSchema,
        response: { 200: CheckInChecklistSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply.headers(NO_STORE).send(await service.checklist(request.params.bookingKey, request.params.appointmentSlug)),
  );

  api.post(
    `${BASE}/prepare`,
    {
      ...open,
      schema: {
        tags,
        summary: 'Send the check-in form; it is handed to the clinic system (poll the status until checkInPreparedSent)',
        params: CheckInParamsSchema,
        body: CheckInFormSchema,
        response: { 202: CheckInStatusSchema, ...errors },
      },
    },
    async (request, reply) =>
      sendCheckInAccepted(
        reply,
        await service.prepare(request.params.bookingKey, request.params.appointmentSlug, request.body, bookingActorOf(request)),
      ),
  );

  api.post(
    BASE,
    {
      ...open,
      schema: {
        tags,
        summary: 'Check in (after the form reached the clinic, or at once in simple mode); poll the status until checkInSuccess',
        params: CheckInParamsSchema,
        response: { 202: CheckInStatusSchema, ...errors },
      },
    },
    async (request, reply) =>
      sendCheckInAccepted(reply, await service.checkIn(request.params.bookingKey, request.params.appointmentSlug, bookingActorOf(request))),
  );
}
