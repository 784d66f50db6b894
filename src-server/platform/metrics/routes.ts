import type { FastifyInstance, FastifyRequest } from 'fastify';
import { bearerTokenOf, matchesTokenDigest } from '../api-tokens';
import { forbidden, notFound } from '../errors';
import { METRICS_CONTENT_TYPE, type PortalMetrics } from './metrics';

/**
 * GET /metrics in Prometheus' text format, for the provider's monitoring only
 * (docs/server.md#metrics-and-health): a scraper sends `Authorization: Bearer <token>` whose sha256
 * is in METRICS_TOKEN_SHA256. Anyone else gets 403 (audited, like the other machine tokens), and
 * while no digest is configured the route answers 404 to everyone, as if it did not exist.
 *
 * Also times every answer (portal_http_request_duration_seconds) by its route pattern.
 */
export function registerMetricsRoutes(app: FastifyInstance, metrics: PortalMetrics, tokenDigests: readonly string[]): void {
  app.defineAccessCheck('metrics-token', async (request: FastifyRequest): Promise<void> => {
    if (tokenDigests.length === 0) throw notFound('Not found.');
    const token = bearerTokenOf(request.headers.authorization);
    if (token === null || !matchesTokenDigest(token, tokenDigests)) {
      // Audited without the token: src-server/platform/security-audit.ts.
      await request.server.securityAudit.refused(request, { reason: token === null ? 'metrics_token_missing' : 'metrics_token_wrong' });
      throw forbidden('This is for the monitoring with a valid metrics token.');
    }
  });

  app.addHook('onResponse', async (request, reply) => {
    metrics.observeRequest(request.method, request.routeOptions.url ?? null, reply.statusCode, reply.elapsedTime / 1000);
  });

  app.get(
    '/metrics',
    {
      config: { access: 'metrics-token' },
      schema: {
        tags: ['health'],
        summary: "Prometheus metrics (text format 0.0.4): requests, bookings, outboxes, jobs, database, the process's own",
      },
    },
    async (_request, reply) => {
      const text = await metrics.registry.metrics();
      return reply.header('content-type', METRICS_CONTENT_TYPE).header('cache-control', 'no-store').send(text);
    },
  );
}
