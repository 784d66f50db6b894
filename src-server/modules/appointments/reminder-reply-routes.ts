import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  APPOINTMENT_REPLY_API_PATH,
  APPOINTMENT_REPLY_CANCEL_PATH,
  APPOINTMENT_REPLY_CONFIRM_PATH,
  AppointmentReplyBodySchema,
  AppointmentReplyQuerySchema,
  AppointmentReplyViewSchema,
  SMS_INBOUND_API_PATH,
  SmsInboundResultSchema,
  SmsInboundSchema,
} from '@contract/api/appointment-reply';
import { bearerTokenOf, matchesTokenDigest } from '../../platform/api-tokens';
import { errorAnswers, forbidden, notFound } from '../../platform/errors';
import type { ReminderReplies } from './reminder-reply';
import type { SmsReplies } from './sms-replies';

/**
 * Thin routes of the answers to a reminder (docs/rules/reminders.md#replies): the mail's page
 * (its signed token the only credential; GET only describes, mail scanners open every link) and
 * the SMS provider's inbound webhook (a bearer token whose sha256 is in SMS_INBOUND_TOKEN_SHA256;
 * while none is configured the route answers 404 to everyone, as if it did not exist).
 */
export function registerReminderReplyRoutes(
  app: FastifyInstance,
  services: { replies: ReminderReplies; sms: SmsReplies },
  smsInboundTokenDigests: readonly string[],
): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['appointments'];
  const noStore = { 'cache-control': 'no-store' };

  api.get(
    APPOINTMENT_REPLY_API_PATH,
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: "The appointment a reminder's link names and the answers it allows; changes nothing",
        querystring: AppointmentReplyQuerySchema,
        response: { 200: AppointmentReplyViewSchema, ...errorAnswers(400, 503) },
      },
    },
    async (request, reply) => reply.headers(noStore).send(await services.replies.view(request.query.token)),
  );

  const answers = [
    {
      path: APPOINTMENT_REPLY_CONFIRM_PATH,
      summary: '"I will come": the booking becomes CONFIRMED; idempotent',
      answer: services.replies.confirm,
    },
    {
      path: APPOINTMENT_REPLY_CANCEL_PATH,
      summary: '"I cannot come": the booking is cancelled and its time free at once, until the start; idempotent',
      answer: services.replies.cancel,
    },
  ];
  for (const { path, summary, answer } of answers)
    api.post(
      path,
      {
        config: { access: 'public' },
        schema: {
          tags,
          summary,
          querystring: AppointmentReplyQuerySchema,
          body: AppointmentReplyBodySchema,
          response: { 200: AppointmentReplyViewSchema, ...errorAnswers(400, 409, 415, 503) },
        },
      },
      async (request, reply) => reply.headers(noStore).send(await answer(request.query.token)),
    );

  // Checked before the body is read (the access hook runs onRequest).
  app.defineAccessCheck('sms-provider-token', async (request: FastifyRequest): Promise<void> => {
    if (smsInboundTokenDigests.length === 0) throw notFound('Not found.');
    const token = bearerTokenOf(request.headers.authorization);
    if (token === null || !matchesTokenDigest(token, smsInboundTokenDigests)) {
      // Audited without the token: src-server/platform/security-audit.ts.
      await request.server.securityAudit.refused(request, { reason: token === null ? 'sms_token_missing' : 'sms_token_wrong' });
      throw forbidden("This is for the SMS provider's inbound webhook with a valid token.");
    }
  });

  api.post(
    SMS_INBOUND_API_PATH,
    {
      config: { access: 'sms-provider-token' },
      bodyLimit: 8 * 1024,
      schema: {
        tags,
        summary: 'An SMS a patient sent (the SMS provider delivers it): YES confirms, NO cancels the appointment of the latest reminder',
        body: SmsInboundSchema,
        response: { 200: SmsInboundResultSchema, ...errorAnswers(400, 403, 404, 415, 503) },
      },
    },
    async (request, reply) => reply.headers(noStore).send({ outcome: await services.sms.receive(request.body) }),
  );
}
