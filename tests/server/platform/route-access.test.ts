import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { unauthorized } from '../../../src-server/platform/errors';
import { registerRouteAccess, staffSession, type RouteAccess } from '../../../src-server/platform/route-access';

// Each route declares who may call it (src-server/platform/route-access.ts); the server records
// the declarations, will not start with a route that has none or a kind nothing checks, and one
// hook runs the check of the route's access before the body is read.
describe('route access', () => {
  const apps: FastifyInstance[] = [];
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.close()));
  });
  function newApp(): FastifyInstance {
    const app = Fastify();
    apps.push(app);
    registerRouteAccess(app);
    return app;
  }

  it('records each route with its declared access, the GET standing for its HEAD twin', async () => {
    const app = newApp();
    app.defineAccessCheck('staff-session', async () => undefined);
    app.defineAccessCheck('appointment-session', async () => undefined);
    app.get('/api/open', { config: { access: 'public' } }, async () => ({}));
    app.post('/api/staff/thing/:id', { config: { access: staffSession('staff', 'admin') } }, async () => ({}));
    app.route({ method: ['PUT', 'DELETE'], url: '/api/both', config: { access: 'appointment-session' }, handler: async () => ({}) });
    await app.ready();
    expect([...app.routeAccess]).toEqual([
      ['GET /api/open', 'public'],
      ['POST /api/staff/thing/:id', { kind: 'staff-session', roles: ['staff', 'admin'] }],
      ['PUT /api/both', 'appointment-session'],
      ['DELETE /api/both', 'appointment-session'],
    ]);
  });

  it('refuses a route that declares no access, naming it', () => {
    const app = newApp();
    expect(() => app.get('/api/forgotten', async () => ({}))).toThrow(
      '[route-access] GET /api/forgotten declares no access (config.access)',
    );
  });

  it('does not become ready while a declared kind has no check, and a kind is checked by one check only', async () => {
    const app = newApp();
    app.get('/api/kiosk', { config: { access: 'kiosk-token' } }, async () => ({}));
    await expect(app.ready()).rejects.toThrow("[route-access] nothing checks 'kiosk-token' (declared by GET /api/kiosk)");
    const other = newApp();
    other.defineAccessCheck('kiosk-token', async () => undefined);
    expect(() => other.defineAccessCheck('kiosk-token', async () => undefined)).toThrow("the check of 'kiosk-token' is defined twice");
  });

  it('sees the routes of plugins registered after it', async () => {
    const app = newApp();
    app.defineAccessCheck('kiosk-token', async () => undefined);
    await app.register(async (scope) => {
      scope.get('/api/in-plugin', { config: { access: 'kiosk-token' } }, async () => ({}));
    });
    await app.ready();
    expect(app.routeAccess.get('GET /api/in-plugin')).toBe('kiosk-token');
  });

  it("runs the route's check with its declaration before the body is read, and lets a public route through unchecked", async () => {
    const app = newApp();
    const seen: RouteAccess[] = [];
    app.defineAccessCheck('staff-session', async (request, access) => {
      seen.push(access);
      if (request.headers.authorization !== 'Staff yes') throw unauthorized('Please sign in.');
    });
    app.post('/api/staff/notes', { config: { access: staffSession('admin') } }, async (request) => ({ got: request.body }));
    app.post('/api/open', { config: { access: 'public' } }, async () => ({ open: true }));
    await app.ready();

    // Broken JSON: refused for who is asking (401), not for the body (400), which was never parsed.
    const refused = await app.inject({
      method: 'POST',
      url: '/api/staff/notes',
      headers: { 'content-type': 'application/json' },
      payload: '{"no',
    });
    expect(refused.statusCode).toBe(401);
    const letThrough = await app.inject({
      method: 'POST',
      url: '/api/staff/notes',
      headers: { 'content-type': 'application/json', authorization: 'Staff yes' },
      payload: { note: 'hi' },
    });
    expect(letThrough.json()).toEqual({ got: { note: 'hi' } });
    expect(seen).toEqual([staffSession('admin'), staffSession('admin')]);
    expect((await app.inject({ method: 'POST', url: '/api/open' })).json()).toEqual({ open: true });
    expect(seen).toHaveLength(2);
  });
});
