import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { HealthSchema, type Health } from '@contract/api/common';
import type { HealthRepository } from './repository';

/**
 * GET /api/health for load balancers and monitors: 200 when the database answers, 503 when it
 * does not (docs/rules/security.md#reliability), never a false "ok".
 */
export function registerHealthRoutes(app: FastifyInstance, repository: HealthRepository, version: string): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/health',
    {
      config: { access: 'public' },
      schema: {
        tags: ['health'],
        summary: 'Liveness and database reachability',
        response: { 200: HealthSchema, 503: HealthSchema },
      },
    },
    async (_request, reply) => {
      const databaseOk = await repository.ping();
      const body: Health = { status: databaseOk ? 'ok' : 'degraded', database: databaseOk ? 'ok' : 'unreachable', version };
      return reply.code(databaseOk ? 200 : 503).send(body);
    },
  );
}
