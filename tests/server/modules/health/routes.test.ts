import { describe, expect, it } from 'vitest';
import { HealthSchema } from '@contract/api/common';
import { ApiErrorBodySchema } from '@contract/errors';
import { backends } from '../../helpers/database';
import { useTestApp } from '../../helpers/test-app';

describe.each(backends())('GET /api/health on %s', (backend) => {
  const server = useTestApp({ backend });

  it('answers 200 ok with the version while the database answers', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(HealthSchema.parse(response.json())).toEqual({ status: 'ok', database: 'ok', version: '9.8.7' });
  });

  it('answers 503 unreachable once the database is gone, other endpoints 503 too, headers still set', async () => {
    const before = await server.app.inject({ method: 'GET', url: '/api/config/app' });
    await server.db.close();
    const health = await server.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(503);
    expect(HealthSchema.parse(health.json())).toEqual({ status: 'degraded', database: 'unreachable', version: '9.8.7' });
    const config = await server.app.inject({ method: 'GET', url: '/api/config/app' });
    expect(config.statusCode).toBe(503);
    expect(ApiErrorBodySchema.parse(config.json()).code).toBe('service_unavailable');
    // The last known frame-ancestors stay in force while the database is away.
    expect(config.headers['content-security-policy']).toBe(before.headers['content-security-policy']);
  });
});
