import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Mailer } from '../../../../src-server/platform/mailer';
// Also declares app.metrics.
import type { PortalMetrics } from '../../../../src-server/platform/metrics/metrics';
import { createOutboxRepository } from '../../../../src-server/platform/outbox/outbox-repository';
import { createOutboxWorker } from '../../../../src-server/platform/outbox/outbox-worker';
import { backends } from '../../helpers/database';
import { useTestApp } from '../../helpers/test-app';
import { book, patient, slotsOn } from '../../modules/booking/booking-test-kit';
import { LIAM } from '../../route-access-matrix';
import { metricNames, sampleValue } from './prometheus-text';

// GET /metrics (src-server/platform/metrics): who may read it, and what it tells an operator, on
// the real server and database; prom-client itself, not a stand-in, writes the answer.

const TOKEN = 'metrics-test-scraper-token-0123456789abcdef';
const ENV = { METRICS_TOKEN_SHA256: createHash('sha256').update(TOKEN).digest('hex') };
const SCRAPER = { authorization: `Bearer ${TOKEN}` };

describe.each(backends())('GET /metrics on %s', (backend) => {
  const server = useTestApp({ backend, env: ENV, log: 'warn' });
  const unconfigured = useTestApp({ backend });

  async function scrape(): Promise<string> {
    const response = await server.app.inject({ method: 'GET', url: '/metrics', headers: SCRAPER });
    expect(response.statusCode, response.body).toBe(200);
    return response.body;
  }

  it('answers the configured token only: 403 to anyone else, audited; 404 to all while no token is configured', async () => {
    const callers: Array<[string, Record<string, string>, number]> = [
      ['anonymous', {}, 403],
      ['a wrong token', { authorization: 'Bearer not-the-metrics-token-0123456789' }, 403],
      ['the token, not as a bearer token', { authorization: `Basic ${TOKEN}` }, 403],
      ['the scraper', SCRAPER, 200],
    ];
    for (const [who, headers, status] of callers) {
      const response = await server.app.inject({ method: 'GET', url: '/metrics', headers, remoteAddress: '203.0.113.40' });
      expect(response.statusCode, who).toBe(status);
      const other = await unconfigured.app.inject({ method: 'GET', url: '/metrics', headers });
      expect(other.statusCode, `${who}, no token configured`).toBe(404);
    }
    const audited = await server.db.query<{ reason: string }>(
      `select details->>'reason' as reason from audit_log where action = 'authorization_failed' and details->>'reason' like 'metrics%'`,
    );
    expect(audited.map((row) => row.reason).sort()).toEqual(['metrics_token_missing', 'metrics_token_missing', 'metrics_token_wrong']);
  });

  it('answers in the Prometheus text format with the process metrics and every family the portal declares', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/metrics', headers: SCRAPER });
    expect(response.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-store');
    const names = metricNames(response.body);
    for (const name of [
      'process_cpu_user_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
      'nodejs_heap_size_used_bytes',
      'portal_http_request_duration_seconds',
      'portal_bookings_total',
      'portal_outbox_items',
      'portal_outbox_deliveries_total',
      'portal_job_runs_total',
      'portal_job_failures_total',
      'portal_db_queries_total',
      'portal_db_query_failures_total',
      'portal_db_query_seconds_total',
    ])
      expect(names, name).toContain(name);
    expect(names.includes('portal_db_pool_connections'), 'the pool, PostgreSQL only').toBe(backend === 'postgres');
  });

  it('times requests by route pattern and status class, never by the URL', async () => {
    const url = `/api/appointments/${LIAM.bookingKey}`;
    for (let index = 0; index < 3; index += 1) expect((await server.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    await server.app.inject({ method: 'GET', url: `/no-such-page/${LIAM.bookingKey}?dateOfBirth=${LIAM.dateOfBirth}` });
    const text = await scrape();
    const labels = { method: 'GET', route: '/api/appointments/:bookingKey', status_class: '4xx' };
    expect(sampleValue(text, 'portal_http_request_duration_seconds_count', labels)).toBe(3);
    expect(sampleValue(text, 'portal_http_request_duration_seconds_bucket', { ...labels, le: '+Inf' })).toBe(3);
    expect(sampleValue(text, 'portal_http_request_duration_seconds_count', { route: '(no route)' })).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain(LIAM.bookingKey);
    expect(text).not.toContain(LIAM.dateOfBirth);
    // The other server in this process keeps its own registry: none of these requests are in it.
    const other: PortalMetrics = unconfigured.app.metrics;
    expect(other.registry).not.toBe(server.app.metrics.registry);
    const otherText = await other.registry.getSingleMetricAsString('portal_http_request_duration_seconds');
    expect(sampleValue(otherText, 'portal_http_request_duration_seconds_count', labels)).toBeNull();
  });

  it('counts bookings by outcome', async () => {
    const startsAt = (await slotsOn(server.app, 'mri-knee', 'parramatta', '2026-03-24'))[0]?.startsAt ?? '';
    const body = { exams: ['mri-knee'], clinicSlug: 'parramatta', startsAt, patient: patient() };
    expect((await book(server.app, body)).statusCode).toBe(201);
    expect((await book(server.app, body)).statusCode, 'the same time again').toBe(409);
    expect((await book(server.app, { ...body, startsAt: 'not a time' })).statusCode).toBe(400);
    const text = await scrape();
    expect(sampleValue(text, 'portal_bookings_total', { kind: 'appointment', outcome: 'booked' })).toBe(1);
    expect(sampleValue(text, 'portal_bookings_total', { kind: 'appointment', outcome: 'conflict' })).toBe(1);
    expect(sampleValue(text, 'portal_bookings_total', { kind: 'appointment', outcome: 'invalid' })).toBe(1);
  });

  it('reads the outboxes from the database at scrape time: pending and failed per channel', async () => {
    const counts = async (): Promise<{ pending: number; failed: number }> => {
      const [row] = await server.db.query<{ pending: number; failed: number }>(
        `select count(*) filter (where status in ('queued', 'sending'))::int as pending,
                count(*) filter (where status = 'failed')::int as failed from outbox_mail`,
      );
      return row ?? { pending: -1, failed: -1 };
    };
    const outbox = createOutboxRepository(server.db);
    const mail = { kind: 'booking_confirmation', recipient: 'metrics@example.com', subject: 'Metrics', text: 'Metrics' };
    await outbox.enqueue(mail, server.clock.now());
    const failedId = await outbox.enqueue(mail, server.clock.now());
    await server.db.query(`update outbox_mail set status = 'failed' where id = $1`, [failedId]);
    const expected = await counts();
    expect(expected.pending).toBeGreaterThanOrEqual(1);
    const text = await scrape();
    expect(sampleValue(text, 'portal_outbox_items', { channel: 'mail', state: 'pending' })).toBe(expected.pending);
    expect(sampleValue(text, 'portal_outbox_items', { channel: 'mail', state: 'failed' })).toBe(expected.failed);
    expect(sampleValue(text, 'portal_outbox_items', { channel: 'sms', state: 'pending' })).toBe(0);
    expect(sampleValue(text, 'portal_outbox_items', { channel: 'ris', state: 'failed' })).toBe(0);
  });

  it("counts this process's deliveries by outcome through the outbox loop's observer", async () => {
    const refused = Object.assign(new Error('550 refused'), { code: 'EENVELOPE', responseCode: 550, command: 'RCPT TO' });
    let accept = true;
    const mailer: Mailer = {
      configured: true,
      send: () => (accept ? Promise.resolve({ messageId: 'metrics' }) : Promise.reject(refused)),
      close: () => Promise.resolve(),
    };
    const worker = createOutboxWorker({
      db: server.db,
      mailer,
      clock: server.clock,
      logger: server.app.log,
      pollMs: 60_000,
      maxAttempts: 3,
      observe: server.app.metrics.outboxDelivery('mail'),
    });
    const outbox = createOutboxRepository(server.db);
    const mail = { kind: 'booking_confirmation', recipient: 'deliveries@example.com', subject: 'Deliveries', text: 'Deliveries' };
    // What earlier tests left queued goes first.
    const sentBefore = (await worker.runOnce()).sent;
    await outbox.enqueue(mail, server.clock.now());
    expect((await worker.runOnce()).sent).toBe(1);
    accept = false;
    await outbox.enqueue(mail, server.clock.now());
    expect((await worker.runOnce()).failed).toBe(1);
    const text = await scrape();
    expect(sampleValue(text, 'portal_outbox_deliveries_total', { channel: 'mail', outcome: 'sent' })).toBe(sentBefore + 1);
    expect(sampleValue(text, 'portal_outbox_deliveries_total', { channel: 'mail', outcome: 'failed' })).toBe(1);
  });

  it("counts the jobs' runs and failures and the database's statements", async () => {
    // results.release-notices runs at start (register-results.ts).
    await expect
      .poll(async () => sampleValue(await scrape(), 'portal_job_runs_total', { job: 'results.release-notices' }))
      .toBeGreaterThan(0);
    const text = await scrape();
    expect(sampleValue(text, 'portal_job_failures_total', { job: 'results.release-notices' })).toBe(0);
    expect(sampleValue(text, 'portal_db_queries_total', { engine: backend })).toBeGreaterThan(10);
    expect(sampleValue(text, 'portal_db_query_seconds_total', { engine: backend })).toBeGreaterThan(0);
    if (backend === 'postgres') {
      // The test database's pool (tests/server/helpers/database.ts: max 4).
      expect(sampleValue(text, 'portal_db_pool_connections', { state: 'max' })).toBe(4);
      expect(sampleValue(text, 'portal_db_pool_connections', { state: 'total' })).toBeGreaterThan(0);
      expect(sampleValue(text, 'portal_db_pool_connections', { state: 'idle' })).toBeGreaterThanOrEqual(0);
      expect(sampleValue(text, 'portal_db_pool_connections', { state: 'waiting' })).toBeGreaterThanOrEqual(0);
    }
  });

  it('still answers while the database is away, without the figures it cannot read, and says so in the log', async () => {
    await server.db.close();
    const text = await scrape();
    expect(sampleValue(text, 'portal_outbox_items', { channel: 'mail', state: 'pending' })).toBeNull();
    expect(sampleValue(text, 'process_cpu_user_seconds_total')).not.toBeNull();
    expect(server.log.text()).toContain('[metrics] the outbox counts could not be read');
  });
});
