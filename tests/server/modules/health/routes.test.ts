import { describe, expect, it } from 'vitest';
import { HealthSchema } from '@contract/api/common';
import { ApiErrorBodySchema } from '@contract/errors';
import { backends } from '../../helpers/database';
import { useTestApp } from '../../helpers/test-app';

describe.each(backends())('GET /api/health, /api/health/live and /api/health/ready on %s', (backend) => {
  const server = useTestApp({ backend });

  it('answers 200 ok with the version while the database answers', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(HealthSchema.parse(response.json())).toEqual({ status: 'ok', database: 'ok', version: '9.8.7' });
  });

  it('tells liveness from readiness: live asks nothing of the database, ready wants it answering and migrated', async () => {
    const live = await server.app.inject({ method: 'GET', url: '/api/health/live' });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ status: 'live', version: '9.8.7' });
    expect(live.headers['cache-control']).toBe('no-store');
    const ready = await server.app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready', database: 'ok', migrations: 'ok', version: '9.8.7' });
    expect(ready.headers['cache-control']).toBe('no-store');
  });

  it('is not ready while a migration this server ships is not applied to the database', async () => {
    const [last] = await server.db.query<{ version: string; checksum: string }>(
      'select version, checksum from schema_migrations order by version desc limit 1',
    );
    if (last === undefined) throw new Error('the test database is migrated');
    await server.db.query('delete from schema_migrations where version = $1', [last.version]);
    try {
      const ready = await server.app.inject({ method: 'GET', url: '/api/health/ready' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ status: 'not-ready', database: 'ok', migrations: 'pending', version: '9.8.7' });
      expect((await server.app.inject({ method: 'GET', url: '/api/health/live' })).statusCode).toBe(200);
    } finally {
      await server.db.query('insert into schema_migrations (version, checksum) values ($1, $2)', [last.version, last.checksum]);
    }
    expect((await server.app.inject({ method: 'GET', url: '/api/health/ready' })).statusCode).toBe(200);
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
    // Not ready, but alive: an orchestrator takes it out of the rotation instead of restarting it.
    const ready = await server.app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ status: 'not-ready', database: 'unreachable', migrations: 'unknown', version: '9.8.7' });
    expect((await server.app.inject({ method: 'GET', url: '/api/health/live' })).statusCode).toBe(200);
  });
});
