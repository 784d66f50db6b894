import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { ApiErrorBody } from '@contract/errors';
import { createConfigRepository } from './modules/config/repository';
import { createConfigService } from './modules/config/service';
import { fhirModule } from './modules/fhir/public';
import { risInboundModule } from './modules/ris-inbound/public';
import { DEFAULT_RETRY_AFTER_SECONDS, GENERIC_MESSAGES } from './platform/error-answers';
import { fastifyLoggerOptions } from './platform/logger';
import { setSecurityHeaders } from './platform/plugins/security-headers';
import { REQUEST_ID_HEADER, requestIdOf } from './platform/request-id';
import { notificationsModule, patientAccessModule, staffAccessModule } from './register-access';
import { bookingModule } from './register-booking';
import { platformModule } from './register-platform';
import { resultsModule } from './register-results';
import { visitModule } from './register-visit';
import type { ServerDeps } from './server-deps';

export type { ServerDeps } from './server-deps';
export { DEFAULT_RETRY_AFTER_SECONDS } from './platform/error-answers';

/**
 * buildServer(deps) → a Fastify instance with every I/O dependency injected (docs/server.md#buildserverdeps):
 * tests build it on a real PGlite or PostgreSQL and call inject(); main.ts builds it on the
 * configured database and listens. The server is the platform and then a short list of named
 * modules (docs/server.md#modules); each names the modules it needs, and Fastify refuses to start
 * one without them.
 */

/** The Fastify instance: its logger, proxies, limits, closing, and the answer to a URL no route can read. */
function createFastify(deps: ServerDeps, configService: ReturnType<typeof createConfigService>): FastifyInstance {
  const { config } = deps;
  const identityMount = deps.identityMount;
  const app = Fastify({
    ...(identityMount === undefined
      ? {}
      : {
          serverFactory: (handler: (request: IncomingMessage, response: ServerResponse) => void) =>
            createServer((request, response) => {
              if (!identityMount(request, response)) handler(request, response);
            }),
        }),
    logger: fastifyLoggerOptions(deps.logger),
    // Every log line of a request carries its id (reqId), the proxy's X-Request-Id when it is a safe token (platform/request-id.ts).
    genReqId: requestIdOf,
    requestIdHeader: false,
    // request.ip is the X-Forwarded-For client only when the direct peer is a configured proxy (TRUST_PROXY).
    trustProxy: config.trustProxy.length === 0 ? false : config.trustProxy,
    bodyLimit: 1024 * 1024,
    // Finish in-flight requests on close, but do not let idle keep-alive sockets hold it open.
    forceCloseConnections: 'idle',
    return503OnClosing: true,
    // A URL that cannot be decoded fails before routing, so no hook runs: answer it here, with
    // the same headers and error shape as everything else, and without echoing the URL back.
    frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      const status = typeof error.statusCode === 'number' && error.statusCode < 500 ? error.statusCode : 400;
      const body: ApiErrorBody = GENERIC_MESSAGES[status] ?? { code: 'bad_request', message: 'The request is not valid.' };
      void configService.securitySources().then((sources) => {
        reply.header('content-type', 'application/json; charset=utf-8');
        if (status === 429) reply.header('retry-after', String(DEFAULT_RETRY_AFTER_SECONDS));
        setSecurityHeaders(reply, request.url, sources, '');
        reply.header('cache-control', 'no-store');
        reply.header(REQUEST_ID_HEADER, request.id);
        void reply.code(status).send(body);
      });
    },
  });
  return app;
}

export async function buildServer(deps: ServerDeps): Promise<FastifyInstance> {
  // Created before the app so Fastify's framework-error handler can use it.
  const configService = createConfigService({
    repository: createConfigRepository(deps.db),
    config: deps.config,
    clock: deps.clock,
    ...(deps.identity?.browser === undefined ? {} : { browserSignIn: deps.identity.browser }),
    onSecuritySourcesError: (error) =>
      app.log.warn({ err: error }, '[security-headers] could not read embedding origins; using the last known ones'),
  });
  const app = createFastify(deps, configService);
  await app.register(platformModule, { deps, configService });
  await app.register(patientAccessModule);
  await app.register(staffAccessModule);
  // Booking and self-service, the staff queues, callbacks, questionnaires, booking requests.
  await app.register(bookingModule);
  // Documents, check-in, kiosks and the referring-doctor search.
  await app.register(visitModule);
  // Results, their images and the referring doctors' pages.
  await app.register(resultsModule);
  await app.register(notificationsModule);
  // The FHIR R4 API for the provider's systems (a RIS): /fhir/R4.
  await app.register(fhirModule);
  await app.register(risInboundModule);
  return app;
}
