import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { registerRouteAccess, staffSession } from '../../../src-server/platform/route-access';

// Each route declares who may call it (src-server/platform/route-access.ts); the server records
// the declarations and will not start with a route that has none.
describe('route access declarations', () => {
  it('records each route with its declared access, the GET standing for its HEAD twin', async () => {
    const app = Fastify();
    registerRouteAccess(app);
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
    await app.close();
  });

  it('refuses a route that declares no access, naming it', async () => {
    const app = Fastify();
    registerRouteAccess(app);
    expect(() => app.get('/api/forgotten', async () => ({}))).toThrow(
      '[route-access] GET /api/forgotten declares no access (config.access)',
    );
    await app.close();
  });

  it('sees the routes of plugins registered after it', async () => {
    const app = Fastify();
    registerRouteAccess(app);
    await app.register(async (scope) => {
      scope.get('/api/in-plugin', { config: { access: 'kiosk-token' } }, async () => ({}));
    });
    await app.ready();
    expect(app.routeAccess.get('GET /api/in-plugin')).toBe('kiosk-token');
    await expect(
      Fastify()
        .register(async (scope) => {
          registerRouteAccess(scope);
          scope.get('/api/undeclared', async () => ({}));
        })
        .ready(),
    ).rejects.toThrow('declares no access');
    await app.close();
  });
});
