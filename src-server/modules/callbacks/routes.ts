import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CALLBACK_REQUESTS_PATH,
  CallbackRequestReceivedSchema,
  CallbackRequestSchema,
  MarkCallbackCalledSchema,
  STAFF_CALLBACK_REQUESTS_PATH,
  StaffCallbackListSchema,
  StaffCallbackParamsSchema,
} from '@contract/api/callbacks';
import { CAPTCHA_HEADER } from '@contract/api/captcha';
import { FALLBACK_LOCALE, supportedLocaleOf } from '@contract/api/locales';
import { STAFF_BOOKING_ROLES } from '@contract/api/staff-access';
import { ApiErrorBodySchema } from '@contract/errors';
import { errorAnswers } from '../../platform/errors';
import { staffRoute, staffSessionOf, subjectRef } from '../staff-access/public';
import type { CallbackService } from './service';

const errors = errorAnswers(400, 401, 403, 503);

/** The first language the browser asks for, as a portal locale (the request row keeps it for the call centre). */
function localeOf(acceptLanguage: string | undefined): string {
  const first = acceptLanguage?.split(',')[0]?.split(';')[0]?.trim();
  return supportedLocaleOf(first) ?? FALLBACK_LOCALE;
}

/** POST /api/callback-requests (anyone) and the staff queue (docs/rules/callbacks.md). */
export function registerCallbackRoutes(app: FastifyInstance, service: CallbackService): void {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    CALLBACK_REQUESTS_PATH,
    {
      // Anyone asks; the captcha and the limits keep it from being flooded.
      config: { access: 'public' },
      schema: {
        tags: ['callbacks'],
        summary:
          'Ask the call centre to phone back (anyone). Every request needs a solved proof-of-work answer in the ' +
          `${CAPTCHA_HEADER} header (403 captcha_required without); limited per client and per phone number (429 with Retry-After)`,
        body: CallbackRequestSchema,
        response: { 201: CallbackRequestReceivedSchema, ...errors, 429: ApiErrorBodySchema },
      },
    },
    async (request, reply) => {
      const received = await service.request(
        {
          ip: request.ip,
          captcha: request.headers[CAPTCHA_HEADER],
          clientRef: await app.securityAudit.clientRef(request),
          locale: localeOf(request.headers['accept-language']),
        },
        request.body,
      );
      return reply.code(201).header('cache-control', 'no-store').send(received);
    },
  );

  // The queue holds patients' names, numbers and words: staff and admins, as the booking tools.
  const callCentre = staffRoute(STAFF_BOOKING_ROLES, ['callbacks']);

  api.get(
    STAFF_CALLBACK_REQUESTS_PATH,
    callCentre({
      summary: 'The callback queue: open requests oldest first, then the latest called (staff, admin; audited)',
      response: { 200: StaffCallbackListSchema, ...errors },
    }),
    async (request, reply) => {
      const list = await service.list(subjectRef(staffSessionOf(request).subject));
      return reply.header('cache-control', 'no-store').send(list);
    },
  );

  api.post(
    `${STAFF_CALLBACK_REQUESTS_PATH}/:id/called`,
    callCentre({
      summary: 'Marks a callback request called, with an optional note (staff, admin; audited; 409 when already called)',
      params: StaffCallbackParamsSchema,
      body: MarkCallbackCalledSchema,
      response: { 204: z.null(), ...errors, 404: ApiErrorBodySchema, 409: ApiErrorBodySchema },
    }),
    async (request, reply) => {
      const session = staffSessionOf(request);
      await service.markCalled(
        { ref: subjectRef(session.subject), name: session.displayName ?? session.username },
        request.params.id,
        request.body,
      );
      return reply.code(204).send(null);
    },
  );
}
