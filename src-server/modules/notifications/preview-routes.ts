import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { EMAIL_PREVIEW_PATH, EmailPreviewQuerySchema, EmailPreviewSchema } from '@contract/api/notifications';
import { ApiErrorBodySchema } from '@contract/errors';
import type { Queryable } from '../../db/connection';
import type { Clock } from '../../platform/clock';
import { staffRoute, staffSessionOf, subjectRef } from '../staff-access/public';
import { previewEmail } from './email-preview';
import { createPreviewRepository } from './preview-repository';

/**
 * GET /api/notifications/preview_translated_email (docs/rules/notifications.md#e-mail-preview):
 * staff or admin only. Registered whether or not staff sign-in is configured: without it the
 * guard answers 401, like every staff route.
 */
export function registerEmailPreviewRoutes(app: FastifyInstance, deps: { db: Queryable; clock: Clock; publicUrl: string }): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const staffOnly = staffRoute(['staff', 'admin'], ['notifications']);
  const repository = createPreviewRepository(deps.db);
  api.get(
    EMAIL_PREVIEW_PATH,
    {
      ...staffOnly({
        summary: 'Preview an e-mail template in a locale for an appointment (staff); sends nothing',
        querystring: EmailPreviewQuerySchema,
        response: {
          200: EmailPreviewSchema,
          400: ApiErrorBodySchema,
          401: ApiErrorBodySchema,
          403: ApiErrorBodySchema,
          404: ApiErrorBodySchema,
          503: ApiErrorBodySchema,
        },
      }),
      // Set before the guard runs, so refusals are not cached either: the mail holds a patient's details.
      onRequest: async (_request, reply) => {
        reply.header('cache-control', 'no-store');
      },
    },
    async (request) => {
      const session = staffSessionOf(request);
      return previewEmail({ repository, publicUrl: deps.publicUrl, clock: deps.clock }, request.query, subjectRef(session.subject));
    },
  );
}
