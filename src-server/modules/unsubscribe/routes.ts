import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  RESUBSCRIBE_API_PATH,
  ResubscribeBodySchema,
  UNSUBSCRIBE_API_PATH,
  UnsubscribeBodySchema,
  UnsubscribeQuerySchema,
  UnsubscribeStatusSchema,
} from '@contract/api/unsubscribe';
import { errorAnswers } from '../../platform/errors';
import type { OutgoingMailPolicy } from '../../platform/outbox/outbox-worker';
import type { UnsubscribeService } from './service';

declare module 'fastify' {
  interface FastifyInstance {
    /** What each mail becomes as it goes out (its unsubscribe link and headers, or skipped): main.ts gives it to the mail worker. */
    outgoingMailPolicy: OutgoingMailPolicy;
  }
}

/**
 * Thin routes of the one-click unsubscribe (docs/rules/notifications.md#unsubscribe). No session:
 * the signed token in the query is the credential, so a mail provider's cookieless POST works.
 */

const errors = errorAnswers(400, 415, 503);
const FORM_BODY_LIMIT = 1024;

export function registerUnsubscribeRoutes(app: FastifyInstance, service: UnsubscribeService): void {
  app.decorate('outgoingMailPolicy', service.mailPolicy);
  // Its own scope: the form parser below exists for these routes only (docs/rules/security.md#csrf
  // keeps forms out everywhere else). A form can do no harm here: it carries no session, and it
  // can only unsubscribe the address its own signed token names.
  void app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT },
      (_request, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(String(body))));
      },
    );
    const api = scope.withTypeProvider<ZodTypeProvider>();
    const tags = ['notifications'];
    const noStore = { 'cache-control': 'no-store' };

    // GET only describes: link scanners and previews fetch every GET a mail names.
    // The signed token in the query is the credential, with no session: a mail provider's one-click POST carries no cookie.
    api.get(
      UNSUBSCRIBE_API_PATH,
      {
        config: { access: 'public' },
        schema: {
          summary: 'Which address an unsubscribe link names (masked) and whether it is unsubscribed; changes nothing',
          tags,
          querystring: UnsubscribeQuerySchema,
          response: { 200: UnsubscribeStatusSchema, ...errors },
        },
      },
      async (request, reply) => reply.headers(noStore).send(await service.status(request.query.token)),
    );

    // The two changes a link makes, both idempotent and answered with the link's new status.
    const changes = [
      {
        path: UNSUBSCRIBE_API_PATH,
        summary: 'Unsubscribe (RFC 8058 one-click: form body List-Unsubscribe=One-Click, or JSON from the page); idempotent',
        body: UnsubscribeBodySchema,
        change: service.unsubscribe,
      },
      {
        path: RESUBSCRIBE_API_PATH,
        summary: 'Subscribe again with the same link; idempotent',
        body: ResubscribeBodySchema,
        change: service.resubscribe,
      },
    ];
    for (const { path, summary, body, change } of changes)
      api.post(
        path,
        {
          config: { access: 'public' },
          schema: { summary, tags, querystring: UnsubscribeQuerySchema, body, response: { 200: UnsubscribeStatusSchema, ...errors } },
        },
        async (request, reply) => reply.headers(noStore).send(await change(request.query.token)),
      );
  });
}
