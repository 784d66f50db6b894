import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  EMAIL_PREVIEW_HTML_PATH,
  EMAIL_PREVIEW_OPTIONS_PATH,
  EMAIL_PREVIEW_PATH,
  EMAIL_TEST_SEND_PATH,
  EmailPreviewOptionsSchema,
  EmailPreviewQuerySchema,
  EmailPreviewSchema,
  EmailTestSendSchema,
  EmailTestSentSchema,
} from '@contract/api/notifications';
import { ApiErrorBodySchema } from '@contract/errors';
import { errorAnswers } from '../../platform/errors';
import type { Database } from '../../db/connection';
import type { Clock } from '../../platform/clock';
import { staffRoute, staffSessionOf, subjectRef } from '../staff-access/public';
import { previewEmail } from './email-preview';
import { createPreviewRepository } from './preview-repository';
import { previewOptions, sendTestEmail } from './preview-send';

/**
 * GET /api/notifications/preview_translated_email (docs/rules/notifications.md#e-mail-preview):
 * staff or admin only. Registered whether or not staff sign-in is configured: without it the
 * guard answers 401, like every staff route.
 */
export function registerEmailPreviewRoutes(app: FastifyInstance, deps: { db: Database; clock: Clock; publicUrl: string }): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const staffOnly = staffRoute(['staff', 'admin'], ['notifications']);
  const repository = createPreviewRepository(deps.db);
  const previewDeps = { repository, db: deps.db, publicUrl: deps.publicUrl, clock: deps.clock };
  const errors = errorAnswers(400, 401, 403, 404, 503);

  // Set before the guard runs, so refusals are not cached either: the mail holds a patient's details.
  const noStore = async (_request: unknown, reply: FastifyReply) => {
    reply.header('cache-control', 'no-store');
  };
  api.get(
    EMAIL_PREVIEW_OPTIONS_PATH,
    {
      ...staffOnly({
        summary: "The preview page's pickers: every template, every language, recent bookings, requests and reports (staff)",
        response: { 200: EmailPreviewOptionsSchema, 401: ApiErrorBodySchema, 403: ApiErrorBodySchema, 503: ApiErrorBodySchema },
      }),
      onRequest: noStore,
    },
    async (request) => previewOptions(previewDeps, subjectRef(staffSessionOf(request).subject)),
  );

  api.post(
    EMAIL_TEST_SEND_PATH,
    {
      ...staffOnly({
        summary: "Sends the previewed mail to the signed-in staff member's own address through the mail outbox (staff; 5 an hour)",
        body: EmailTestSendSchema,
        response: { 202: EmailTestSentSchema, ...errors, 429: ApiErrorBodySchema },
      }),
      onRequest: noStore,
    },
    async (request, reply) => {
      const session = staffSessionOf(request);
      const sent = await sendTestEmail(previewDeps, request.body, { actor: subjectRef(session.subject), username: session.username });
      return reply.status(202).send(sent);
    },
  );
  api.get(
    EMAIL_PREVIEW_PATH,
    {
      ...staffOnly({
        summary: 'Preview an e-mail template in a locale for an appointment (staff); sends nothing',
        querystring: EmailPreviewQuerySchema,
        response: { 200: EmailPreviewSchema, ...errors },
      }),
      onRequest: noStore,
    },
    async (request) => {
      const session = staffSessionOf(request);
      return previewEmail(previewDeps, request.query, subjectRef(session.subject));
    },
  );

  api.get(
    EMAIL_PREVIEW_HTML_PATH,
    {
      ...staffOnly({
        summary: "The same preview's HTML alone, for a sandboxed frame of the preview page (staff); sends nothing",
        querystring: EmailPreviewQuerySchema,
      }),
      onRequest: noStore,
      // After the global security-headers hook: the mail's HTML keeps its inline styles, and runs
      // with no script, no network and no same-origin access, framed by the portal only.
      onSend: async (_request, reply, payload) => {
        if (reply.statusCode === 200) reply.header('content-security-policy', MAIL_FRAME_POLICY);
        return payload;
      },
    },
    async (request, reply) => {
      const session = staffSessionOf(request);
      const preview = await previewEmail(previewDeps, request.query, subjectRef(session.subject));
      return reply.header('content-type', 'text/html; charset=utf-8').header('x-robots-tag', 'noindex').send(preview.html);
    },
  );
}

/** The policy of a rendered mail shown in a frame (as the development outbox shows one). */
export const MAIL_FRAME_POLICY = "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'self'";
