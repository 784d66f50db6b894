import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiErrorBodySchema } from '@contract/errors';
import { badRequest } from '../../src-server/platform/errors';
import { backends } from './helpers/database';
import { useTestApp } from './helpers/test-app';

const SENTINEL = 'SENTINEL-PII-5f3a9c';

describe.each(backends())('buildServer error handling and API docs on %s', (backend) => {
  const server = useTestApp({ backend, webRoot: true, log: 'trace', setup: addTestRoutes });
  const { log } = server;

  // Routes that exist only in this test, to reach the error handler the way a real module would.
  function addTestRoutes(app: FastifyInstance): void {
    const api = app.withTypeProvider<ZodTypeProvider>();
    api.post(
      '/api/test/patients/:bookingKey',
      {
        config: { access: 'public' },
        schema: { params: z.object({ bookingKey: z.string() }), body: z.object({ firstName: z.string(), dateOfBirth: z.iso.date() }) },
      },
      async (request) => ({ ok: request.body.firstName }),
    );
    api.get('/api/test/sql-failure', { config: { access: 'public' } }, async () =>
      server.db.query('select * from secret_table_with_patients where dob = $1', ['1980-01-01']),
    );
    api.get('/api/test/app-error', { config: { access: 'public' } }, async () => {
      throw badRequest('That booking cannot be changed now.', { field: 'date' });
    });
  }

  it('declares its background work once, in the job registry (main.ts adds the outbox and RIS workers)', () => {
    expect(server.app.jobs.list().map((job) => job.name)).toEqual([
      'security-audit.flush',
      'patient-access.ended-sessions',
      'questionnaires.key-limit-sweep',
      'booking.expired-holds',
      'booking.expired-limits',
      'appointments.reminders',
      'waitlist.offers',
      'screening-review.expire',
      'attachments.orphans',
      'attachments.quarantine-rescan',
      'referring-doctors.search-limit-sweep',
      'results.release-notices',
    ]);
  });

  it('answers an unknown /api path with 404 route_not_found JSON', async () => {
    for (const [method, url] of [
      ['GET', '/api/nope'],
      ['DELETE', '/api/config/app'],
      ['GET', '/api'],
    ] as const) {
      const response = await server.app.inject({ method, url });
      expect(response.statusCode, url).toBe(404);
      expect(ApiErrorBodySchema.parse(response.json()).code).toBe('route_not_found');
    }
  });

  it('answers malformed JSON with 400 invalid_json', async () => {
    for (const payload of ['{"firstName": ', '']) {
      const response = await server.app.inject({
        method: 'POST',
        url: '/api/test/patients/k',
        headers: { 'content-type': 'application/json' },
        payload,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ code: 'invalid_json', message: 'The request body is not valid JSON.' });
    }
  });

  it('answers a body that breaks the zod schema with 400 validation_failed and the fields', async () => {
    const response = await server.app.inject({
      method: 'POST',
      url: '/api/test/patients/k',
      payload: { firstName: 7, dateOfBirth: 'yesterday' },
    });
    expect(response.statusCode).toBe(400);
    const body = ApiErrorBodySchema.parse(response.json());
    expect(body.code).toBe('validation_failed');
    expect(body.details).toEqual(
      expect.arrayContaining([expect.objectContaining({ in: 'body/firstName' }), expect.objectContaining({ in: 'body/dateOfBirth' })]),
    );
  });

  it('answers an AppError with its status, code, message and details', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/api/test/app-error' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ code: 'bad_request', message: 'That booking cannot be changed now.', details: { field: 'date' } });
  });

  it('answers a failing SQL query with a generic 500 that leaks no SQL, table, stack or path', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/api/test/sql-failure' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ code: 'internal_error', message: 'Something went wrong on our side. Please try again.' });
    for (const leak of ['secret_table', 'select', 'at ', '/src-server', 'relation']) expect(response.body).not.toContain(leak);
    // The details go to the log instead, for whoever runs the server.
    expect(log.text()).toContain('secret_table_with_patients');
  });

  it('answers an undecodable URL with 400 bad_request, security headers, and without echoing the URL', async () => {
    for (const url of ['/%E0%A4%A', '/api/config/%E0%A4%A']) {
      const response = await server.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(400);
      expect(response.json()).toEqual({ code: 'bad_request', message: 'The request is not valid.' });
      expect(response.headers['content-security-policy'], url).toContain("frame-ancestors 'self'");
      expect(response.headers['x-content-type-options'], url).toBe('nosniff');
      expect(response.headers['cache-control'], url).toBe('no-store');
    }
  });

  it('answers a non-GET request to a page path with 405', async () => {
    const response = await server.app.inject({ method: 'POST', url: '/about', payload: {} });
    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toBe('GET, HEAD');
    expect(response.json()).toMatchObject({ code: 'method_not_allowed' });
  });

  it('serves /api/docs/json as a valid OpenAPI 3 document listing the config, asset and health operations', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const document: unknown = response.json();
    // A full validation against the OpenAPI 3.0 schema, including $refs, of the document as served.
    const file = join(server.webRoot, 'openapi.json');
    writeFileSync(file, response.body);
    await expect(SwaggerParser.validate(file)).resolves.toMatchObject({ openapi: '3.0.3' });
    expect(document).toMatchObject({ openapi: '3.0.3', info: { version: '9.8.7' } });
    const paths = Object.keys(z.object({ paths: z.record(z.string(), z.unknown()) }).parse(document).paths);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/api/health',
        '/api/config/bootstrap',
        '/api/config/app',
        '/api/config/radiology',
        '/api/config/body-figure',
        '/api/config/integration',
        '/api/config/theme',
        '/api/config/environment',
        '/api/config/contact',
        '/api/config/terms',
        '/api/assets/translations',
        '/api/assets/application/{name}',
      ]),
    );
    expect(paths).not.toContain('/api/docs/json');
  });

  it('serves /api/docs as a script-free HTML list of the operations', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/api/docs' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.body).not.toContain('<script');
    expect(response.body).toContain('<code>/api/config/bootstrap</code>');
    const nonce = /<style nonce="([^"]+)">/.exec(response.body)?.[1];
    expect(response.headers['content-security-policy']).toContain(`style-src 'self' 'nonce-${nonce}'`);
  });

  it('logs route patterns, never URLs, query strings, bodies or headers that may hold personal data', async () => {
    log.lines.length = 0;
    await server.app.inject({ method: 'GET', url: `/api/config/app?dateOfBirth=${SENTINEL}` });
    await server.app.inject({ method: 'GET', url: `/api/assets/translations?lang=${SENTINEL}` });
    await server.app.inject({ method: 'GET', url: `/appointments/${SENTINEL}?kioskMode=true`, headers: { accept: 'text/html' } });
    await server.app.inject({
      method: 'POST',
      url: `/api/test/patients/${SENTINEL}`,
      headers: { cookie: `session=${SENTINEL}`, authorization: `Bearer ${SENTINEL}` },
      payload: { firstName: SENTINEL, dateOfBirth: SENTINEL },
    });
    await server.app.inject({
      method: 'POST',
      url: `/api/test/patients/${SENTINEL}`,
      headers: { 'content-type': 'application/json' },
      payload: `{"firstName": "${SENTINEL}"`,
    });
    await server.app.inject({ method: 'GET', url: `/api/nope/${SENTINEL}` });
    const text = log.text();
    expect(log.lines.length).toBeGreaterThan(6);
    expect(text).not.toContain(SENTINEL);
    expect(text).toContain('"route":"/api/config/app"');
    expect(text).toContain('"route":"/api/test/patients/:bookingKey"');
    // Every line is one JSON object (log injection cannot split a line).
    for (const line of log.lines) expect(() => JSON.parse(line)).not.toThrow();
    if (process.env.SHOW_LOG) process.stdout.write(text);
  });
});
