import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

/**
 * Request ids (docs/server.md#logging): every log line of a request carries it as `reqId`, and
 * the answer names it in X-Request-Id, so a patient's "it failed at 10:42" and a proxy's log can
 * be matched with the server's lines. An incoming X-Request-Id (set by the proxy in front) is
 * kept only when it is a short token of letters, digits, '.', '_' and '-' (8 to 64 of them): it
 * goes into every log line, so it must not be able to carry text, a URL or a forged line.
 * Anything else is replaced by a random UUID.
 */

export const REQUEST_ID_HEADER = 'x-request-id';
const SAFE_REQUEST_ID = /^[A-Za-z0-9._-]{8,64}$/;

/** Fastify's genReqId: the incoming id when safe, else a new one. */
export function requestIdOf(request: IncomingMessage): string {
  const incoming = request.headers[REQUEST_ID_HEADER];
  return typeof incoming === 'string' && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/** Names the request id in every answer, errors and the web app's pages included (set before anything can fail). */
export function registerRequestIdHeader(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
  });
}
