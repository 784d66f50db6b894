import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Database } from '../../db/connection';
import type { DeliveryOutcome } from '../outbox/outbox-loop';
import type { MetricsRepository } from './metrics-repository';

/**
 * What /metrics tells an operator (docs/server.md#metrics-and-health), in one Registry per app
 * (never prom-client's global one, so several servers in one process, as in the tests, keep their
 * own counts):
 *
 * - portal_http_request_duration_seconds{method, route, status_class}: every answer, by the
 *   route's pattern (/api/appointments/:bookingKey), never its URL (URLs carry booking keys);
 * - portal_job_runs_total / portal_job_failures_total{job}: each finished run of a periodic job;
 * - portal_outbox_items{channel, state}: pending and failed mail, SMS and RIS hand-offs, read from
 *   the database at scrape time (so every server of several reports the shared queue);
 * - portal_outbox_deliveries_total{channel, outcome}: what this process's outbox loops did;
 * - portal_db_*: statements, failures and time; the PostgreSQL pool's connections;
 * - prom-client's default process and Node.js metrics (process_*, nodejs_*).
 *
 * Modules add their own metrics to `registry` (booking: portal_bookings_total).
 */

export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

export interface PortalMetrics {
  /** This app's registry: a module registers its own metrics on it (registers: [app.metrics.registry]). */
  readonly registry: Registry;
  /** One answer: its method, route pattern (null: no route matched), status and time taken. */
  observeRequest(method: string, route: string | null, statusCode: number, seconds: number): void;
  /** A periodic job's run finished (platform/jobs.ts). */
  jobFinished(name: string, failed: boolean): void;
  /** The observer an outbox loop reports each item's outcome to. */
  outboxDelivery(channel: string): (outcome: DeliveryOutcome) => void;
}

declare module 'fastify' {
  interface FastifyInstance {
    readonly metrics: PortalMetrics;
  }
}

/** Request durations from 5 ms (a cached read) to 10 s (a large upload, a slow database). */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export interface MetricsSources {
  db: Database;
  repository: MetricsRepository;
  /** A scrape-time read that failed (the database is away): logged, and its series left out of that scrape. */
  onCollectError(error: unknown): void;
}

export function createMetrics(sources: MetricsSources): PortalMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Histogram({
    name: 'portal_http_request_duration_seconds',
    help: 'Time to answer a request, by method, route pattern ((no route): pages and unknown paths) and status class.',
    labelNames: ['method', 'route', 'status_class'] as const,
    buckets: HTTP_BUCKETS,
    registers: [registry],
  });
  const jobRuns = new Counter({
    name: 'portal_job_runs_total',
    help: 'Finished runs of each periodic job (app.jobs.every), failed ones included.',
    labelNames: ['job'] as const,
    registers: [registry],
  });
  const jobFailures = new Counter({
    name: 'portal_job_failures_total',
    help: 'Runs of each periodic job that failed (logged as [jobs] <name> failed).',
    labelNames: ['job'] as const,
    registers: [registry],
  });
  const deliveries = new Counter({
    name: 'portal_outbox_deliveries_total',
    help: "Outcomes of this process's outbox deliveries: sent, retried (failed, tried again later), failed (given up), skipped (unsubscribed).",
    labelNames: ['channel', 'outcome'] as const,
    registers: [registry],
  });
  registerQueueGauge(registry, sources);
  registerDatabaseMetrics(registry, sources.db);
  return {
    registry,
    observeRequest(method, route, statusCode, seconds) {
      requests.observe({ method, route: route ?? '(no route)', status_class: `${Math.floor(statusCode / 100)}xx` }, seconds);
    },
    jobFinished(name, failed) {
      jobRuns.inc({ job: name });
      // Zero until the first failure, so a rate over failures/runs exists from the first run.
      jobFailures.inc({ job: name }, failed ? 1 : 0);
    },
    outboxDelivery: (channel) => (outcome) => deliveries.inc({ channel, outcome }),
  };
}

/** portal_outbox_items: read from the database at each scrape, never polled. */
function registerQueueGauge(registry: Registry, sources: MetricsSources): void {
  new Gauge({
    name: 'portal_outbox_items',
    help: 'Items in the mail and SMS outboxes and the RIS hand-off queue: pending (queued or being sent) and failed (given up, kept). Read from the database at scrape time.',
    labelNames: ['channel', 'state'] as const,
    registers: [registry],
    async collect() {
      try {
        const counts = await sources.repository.queueCounts();
        this.reset();
        for (const { channel, pending, failed } of counts) {
          this.set({ channel, state: 'pending' }, pending);
          this.set({ channel, state: 'failed' }, failed);
        }
      } catch (error) {
        // No figure rather than a wrong one; the scrape still answers.
        this.reset();
        sources.onCollectError(error);
      }
    },
  });
}

/** Cumulative counts the database keeps (Database.stats()), as counters read at scrape time. */
function statsCounter(registry: Registry, name: string, help: string, read: () => number, engine: string): void {
  new Counter({
    name,
    help,
    labelNames: ['engine'] as const,
    registers: [registry],
    collect() {
      this.reset();
      this.inc({ engine }, read());
    },
  });
}

/**
 * Statements, failures and time on both engines; for PostgreSQL the pool's connections too. PGlite
 * has no pool (one in-process connection, one statement at a time): its queueing shows as time.
 */
function registerDatabaseMetrics(registry: Registry, db: Database): void {
  const engine = db.kind;
  statsCounter(registry, 'portal_db_queries_total', 'Statements run (inside transactions too).', () => db.stats().queries, engine);
  statsCounter(registry, 'portal_db_query_failures_total', 'Statements that failed.', () => db.stats().failedQueries, engine);
  statsCounter(
    registry,
    'portal_db_query_seconds_total',
    'Time spent in statements, waiting for a connection (PostgreSQL) or for the one PGlite connection included.',
    () => db.stats().querySeconds,
    engine,
  );
  if (db.stats().pool === null) return;
  new Gauge({
    name: 'portal_db_pool_connections',
    help: "The PostgreSQL pool: connections open (total), of which idle, callers waiting for one (waiting), and the pool's maximum (max).",
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const pool = db.stats().pool;
      if (pool === null) return;
      for (const state of ['total', 'idle', 'waiting', 'max'] as const) this.set({ state }, pool[state]);
    },
  });
}
