import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HealthSchema, type Health } from '@contract/api/common';
import type { HealthRepository } from './repository';

/**
 * Health for load balancers, orchestrators and monitors (docs/server.md#metrics-and-health):
 *
 * - GET /api/health/live: the process is up and answers; it asks nothing of the database, so a
 *   database outage does not get every server restarted.
 * - GET /api/health/ready: may this server take traffic? 200 when the database answers and every
 *   migration this server ships is applied; 503 otherwise (and while the server is closing).
 * - GET /api/health: the combined answer the web app and scripts/start.mjs read: 200 when the
 *   database answers, 503 when it does not (docs/rules/security.md#reliability), never a false "ok".
 *
 * The live and ready answers are for machines, not the web app: their shapes are declared here.
 */

const LiveSchema = z.object({ status: z.literal('live'), version: z.string() });
const ReadySchema = z.object({
  status: z.enum(['ready', 'not-ready']),
  database: z.enum(['ok', 'unreachable']),
  /** ok: every migration this server ships is applied; pending: some are not; unknown: the database did not answer. */
  migrations: z.enum(['ok', 'pending', 'unknown']),
  version: z.string(),
});

export interface HealthOptions {
  version: string;
  /** The migration versions this server ships (db/migrate.ts), read once, at the first readiness check. */
  expectedMigrations: () => readonly string[];
}

export function registerHealthRoutes(app: FastifyInstance, repository: HealthRepository, options: HealthOptions): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { version } = options;
  const noStore = { 'cache-control': 'no-store' };
  let expected: readonly string[] | null = null;

  api.get(
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

  api.get(
    '/api/health/live',
    {
      config: { access: 'public' },
      schema: { tags: ['health'], summary: 'Liveness: the process is up (the database is not asked)', response: { 200: LiveSchema } },
    },
    async (_request, reply) => reply.headers(noStore).send({ status: 'live' as const, version }),
  );

  api.get(
    '/api/health/ready',
    {
      config: { access: 'public' },
      schema: {
        tags: ['health'],
        summary: 'Readiness: the database answers and every migration this server ships is applied (503 otherwise)',
        response: { 200: ReadySchema, 503: ReadySchema },
      },
    },
    async (_request, reply) => {
      const applied = await repository.appliedMigrations();
      expected ??= options.expectedMigrations();
      const have = new Set(applied ?? []);
      const migrations = applied === null ? 'unknown' : expected.every((name) => have.has(name)) ? 'ok' : 'pending';
      const ready = migrations === 'ok';
      return reply
        .code(ready ? 200 : 503)
        .headers(noStore)
        .send({ status: ready ? 'ready' : 'not-ready', database: applied === null ? 'unreachable' : 'ok', migrations, version });
    },
  );
}
