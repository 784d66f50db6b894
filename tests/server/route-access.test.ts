import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { backends } from './helpers/database';
import { useMatrixApp } from './matrix-app';
import {
  CALLERS,
  describeAccess,
  expectedOutcome,
  outcomeOf,
  ROUTE_BODIES,
  SESSION_ENDING_ROUTES,
  urlFor,
  type CallerName,
  type Outcome,
} from './route-access-matrix';
import { declaredRouteAccess } from './declared-access';

// The route matrix: every route the built app registers declares who may call it (config.access,
// src-server/platform/route-access.ts; the server does not start otherwise), and every route is
// called by every kind of caller (anonymous, a patient session of each type, a staff session of
// each role, a machine client's bearer token): each is let through or refused as declared.
// A patient session gets 401 from every staff route; a staff session of the wrong role 403.

const DECLARED = await declaredRouteAccess();

/**
 * The routes the app registers, as 'METHOD /path' (HEAD left out where GET implies it), read
 * from app.printRoutes(): Fastify's own list, independent of the declarations.
 */
export function registeredRoutes(app: FastifyInstance): string[] {
  const routes: string[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^((?:│ {3}| {4})*)(?:├── |└── )(\S+)(?: \(([^)]*)\))?$/.exec(line);
    if (match === null) continue;
    const depth = (match[1] ?? '').length / 4;
    stack.length = depth;
    stack.push(match[2] ?? '');
    const methods = (match[3] ?? '').split(',').map((method) => method.trim());
    for (const method of methods) {
      if (method === '' || (method === 'HEAD' && methods.includes('GET'))) continue;
      routes.push(`${method} ${stack.join('')}`);
    }
  }
  return routes.sort();
}

// What the declarations themselves may never say, whoever edits a route: the matrix above only
// proves a route behaves as declared.
describe('the declared access of the routes', () => {
  const accessOf = (prefix: RegExp) => DECLARED.filter(([route]) => prefix.test(route.split(' ')[1] ?? ''));

  it('gives every staff route a staff session', () => {
    const staffRoutes = accessOf(/^\/api\/staff\//);
    expect(staffRoutes.length).toBeGreaterThan(10);
    for (const [route, access] of staffRoutes) expect(typeof access === 'object' && access.kind, route).toBe('staff-session');
  });

  it('keeps the development outbox to this machine and the integration routes to their token', () => {
    for (const [route, access] of accessOf(/^(\/api)?\/dev\//)) expect(access, route).toBe('dev-loopback');
    for (const [route, access] of accessOf(/^\/api\/integration\//)) expect(access, route).toBe('integration-token');
  });

  it('keeps /metrics to the metrics token', () => {
    expect(DECLARED.filter(([, access]) => access === 'metrics-token')).toEqual([['GET /metrics', 'metrics-token']]);
  });

  it('opens no booking to the public except under a temporary key', () => {
    const open = DECLARED.filter(([route, access]) => access === 'public' && route.includes(':bookingKey'));
    expect(open.map(([route]) => route).filter((route) => !route.includes('/api/booking-keys/:bookingKey/'))).toEqual([]);
  });
});

describe.each(backends())('who may call each route, on %s', (backend) => {
  const { server, ids, callers } = useMatrixApp(backend);
  beforeAll(async () => {
    const loopback = await server.app.inject({ method: 'GET', url: `/api/dev/outbox/${ids.mailId}` });
    expect(loopback.statusCode, 'the development outbox answers this machine').toBe(200);
  });

  it('declares the same access for each route as a build of the same app did', () => {
    expect([...server.app.routeAccess].sort(([a], [b]) => a.localeCompare(b))).toEqual(DECLARED);
    expect(DECLARED.length).toBeGreaterThan(100);
    // Fastify's own list of what it routes, read independently of the declarations.
    expect(registeredRoutes(server.app)).toEqual(DECLARED.map(([route]) => route).sort());
  });

  it('tells API users who may call each operation (x-access in the OpenAPI document)', async () => {
    const document = (await server.app.inject({ method: 'GET', url: '/api/docs/json' })).json<{
      paths: Record<string, Record<string, { 'x-access'?: unknown }>>;
    }>();
    const documented = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.entries(operations).map(([method, operation]): [string, unknown] => [
        `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`,
        operation['x-access'],
      ]),
    );
    expect(documented.length).toBeGreaterThan(100);
    const declared = new Map(DECLARED);
    for (const [route, access] of documented) expect(access, route).toEqual(declared.get(route));
  });

  const routes = DECLARED.map(([route, access]) => [route, describeAccess(access), access] as const);
  it.each(routes)('%s (%s): each caller let through or refused as declared', async (route, _described, access) => {
    const { method, url } = urlFor(route, access, ids);
    const payload = method === 'GET' || method === 'DELETE' ? undefined : (ROUTE_BODIES[route] ?? {});
    const actual = {} as Record<CallerName, Outcome>;
    const expected = {} as Record<CallerName, Outcome>;
    const bodies: string[] = [];
    for (const caller of callers) {
      const response = await caller.send(method, url, payload);
      actual[caller.name] = outcomeOf(access, response);
      expected[caller.name] = expectedOutcome(access, caller.name);
      if (actual[caller.name] !== expected[caller.name])
        bodies.push(`${caller.name}: ${response.statusCode} ${response.body.slice(0, 300)}`);
    }
    if (SESSION_ENDING_ROUTES.has(route)) for (const caller of callers) await caller.renew();
    expect(actual, bodies.join('\n')).toEqual(expected);
    expect(Object.keys(actual)).toEqual([...CALLERS]);
  });
});
