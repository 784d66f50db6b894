import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestServer, testConfig, type TestServer } from '../helpers/build-server';
import { backends } from '../helpers/database';
import { useTestDatabase } from '../helpers/test-app';
import { patient } from '../modules/booking/booking-test-kit';
import { LIAM } from '../route-access-matrix';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from './otlp-receiver';

// Traces (src-server/platform/tracing, docs/operations.md#traces): the real exporter posts to a
// real HTTP endpoint while the server answers real HTTP requests; what arrives is read as
// received. A span per request named by its route pattern, the database statements as its
// children, and nothing a patient typed or a URL carried.

const SPAN_KIND_SERVER = 2;
const SPAN_KIND_CLIENT = 3;
const HOLD_ID = randomUUID();
const NAME = { firstName: 'Zebedee', lastName: 'Quixotic-Tracewell' };
// A caller's W3C trace context (a proxy's or another service's): its trace id and its span's id.
const CALLER = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7' };

describe.each(backends())('traces to an OTLP endpoint, on %s', (backend) => {
  let receiver: OtlpReceiver;
  let server: TestServer;
  let base = '';
  const database = useTestDatabase({ backend });
  const answers: Record<string, number> = {};

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    server = await buildTestServer({
      db: database.db,
      configFor: (dataDir) =>
        testConfig({ DATA_DIR: dataDir, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_SERVICE_NAME: 'portal-under-test' }),
    });
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
    const json = { 'content-type': 'application/json', origin: new URL(base).origin };
    const calls: [string, string, RequestInit][] = [
      ['appointment', `/api/appointments/${LIAM.bookingKey}?dateOfBirth=${LIAM.dateOfBirth}`, {}],
      ['hold', `/api/booking/holds/${HOLD_ID}`, { method: 'DELETE' }],
      [
        'sign-in',
        `/api/patient-access/authenticate?lastName=${NAME.lastName}`,
        {
          method: 'POST',
          headers: json,
          body: JSON.stringify({ bookingKey: LIAM.bookingKey, type: 'APPOINTMENT', dateOfBirth: LIAM.dateOfBirth }),
        },
      ],
      [
        'booking',
        '/api/booking/appointments',
        { method: 'POST', headers: json, body: JSON.stringify({ patient: patient(NAME), slotId: HOLD_ID }) },
      ],
      ['page', `/no-such-page/${LIAM.bookingKey}`, {}],
      ['health', '/api/health', {}],
      ['live', '/api/health/live', { headers: { traceparent: `00-${CALLER.traceId}-${CALLER.spanId}-01`, tracestate: 'vendor=1' } }],
      ['ready', '/api/health/ready', { headers: { traceparent: `00-${CALLER.traceId}-not-a-span-id-01` } }],
    ];
    for (const [what, path, init] of calls) {
      const response = await fetch(base + path, init);
      await response.arrayBuffer();
      answers[what] = response.status;
    }
    // Closing the server sends what the batch still holds.
    await server.close();
  });

  afterAll(async () => {
    await receiver.close();
  });

  const serverSpans = (): ReceivedSpan[] => receiver.spans().filter((span) => span.kind === SPAN_KIND_SERVER);
  const childrenOf = (parent: ReceivedSpan): ReceivedSpan[] =>
    receiver.spans().filter((span) => span.parentSpanId === parent.spanId && span.traceId === parent.traceId);
  const spanOf = (name: string): ReceivedSpan => {
    const found = serverSpans().filter((span) => span.name === name);
    expect(
      found.map((span) => span.name),
      `one span named ${name}`,
    ).toEqual([name]);
    return found[0]!;
  };

  it('posts OTLP/HTTP JSON to /v1/traces, as the configured service', () => {
    expect(receiver.requests.length).toBeGreaterThan(0);
    for (const request of receiver.requests) {
      expect(request.path).toBe('/v1/traces');
      expect(request.contentType).toMatch(/^application\/json/);
    }
    for (const resource of receiver.resources()) expect(resource['service.name']).toBe('portal-under-test');
  });

  it('sends a span per request, named by its route pattern, with its status code and request id', () => {
    const expected: [string, string, string | null][] = [
      ['appointment', 'GET /api/appointments/:bookingKey', '/api/appointments/:bookingKey'],
      ['hold', 'DELETE /api/booking/holds/:holdId', '/api/booking/holds/:holdId'],
      ['sign-in', 'POST /api/patient-access/authenticate', '/api/patient-access/authenticate'],
      ['booking', 'POST /api/booking/appointments', '/api/booking/appointments'],
      ['health', 'GET /api/health', '/api/health'],
      ['live', 'GET /api/health/live', '/api/health/live'],
      ['ready', 'GET /api/health/ready', '/api/health/ready'],
    ];
    for (const [what, name, route] of expected) {
      const span = spanOf(name);
      expect(span.attributes, what).toEqual({
        'http.request.method': name.split(' ')[0],
        'http.route': route,
        'http.response.status_code': answers[what],
        'portal.request_id': expect.stringMatching(/^[0-9a-f-]{36}$/),
      });
    }
    // No route matched: the method alone, never the path.
    expect(spanOf('GET').attributes).toEqual({
      'http.request.method': 'GET',
      'http.response.status_code': answers.page,
      'portal.request_id': expect.any(String),
    });
    expect(serverSpans()).toHaveLength(expected.length + 1);
  });

  it("sends the database statements as the request's children, by verb and table", () => {
    for (const name of ['POST /api/patient-access/authenticate', 'GET /api/health']) {
      const statements = childrenOf(spanOf(name));
      expect(statements.length, name).toBeGreaterThan(0);
      for (const statement of statements) {
        expect(statement.kind).toBe(SPAN_KIND_CLIENT);
        expect(statement.name).toMatch(/^[A-Z]+( [a-z_.]+)?$/);
        expect(Object.keys(statement.attributes).sort()).toEqual(expect.arrayContaining(['db.operation.name', 'db.system.name']));
        for (const key of Object.keys(statement.attributes))
          expect(['db.operation.name', 'db.system.name', 'db.collection.name', 'error.type']).toContain(key);
      }
    }
    const signIn = childrenOf(spanOf('POST /api/patient-access/authenticate')).map((span) => span.name);
    expect(
      signIn.some((name) => /^SELECT [a-z_]+$/.test(name)),
      signIn.join(', '),
    ).toBe(true);
    // Every statement span belongs to a request's trace.
    const requestTraces = new Set(serverSpans().map((span) => span.traceId));
    for (const span of receiver.spans()) expect(requestTraces).toContain(span.traceId);
  });

  it("continues a caller's valid traceparent and starts a trace of its own for a malformed one", () => {
    const continued = spanOf('GET /api/health/live');
    expect({ traceId: continued.traceId, parentSpanId: continued.parentSpanId }).toEqual({
      traceId: CALLER.traceId,
      parentSpanId: CALLER.spanId,
    });
    const own = spanOf('GET /api/health/ready');
    expect(own.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(own.traceId).not.toBe(CALLER.traceId);
    expect(own.parentSpanId ?? '').toBe('');
    // Requests without one never share a trace.
    const roots = serverSpans().filter((span) => span !== continued);
    expect(new Set(roots.map((span) => span.traceId)).size).toBe(roots.length);
  });

  it('never sends path ids, query strings, names, dates of birth or booking keys', () => {
    const everything = receiver.requests.map((request) => request.body).join('\n');
    for (const secret of [
      LIAM.bookingKey,
      LIAM.dateOfBirth,
      HOLD_ID,
      NAME.firstName,
      NAME.lastName,
      'dateOfBirth=',
      'lastName',
      '?',
      '/no-such-page',
    ])
      expect(everything, secret).not.toContain(secret);
  });
});
