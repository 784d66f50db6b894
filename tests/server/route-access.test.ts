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
import { ROUTE_ACCESS } from './route-access-table';

// The route matrix: every route the built app registers is in route-access-table.ts with who may
// call it, and every route is called by every kind of caller (anonymous, a patient session of
// each type, a staff session of each role, a machine client's bearer token): each is let through
// or refused as its class says.
// A patient session gets 401 from every staff route; a staff session of the wrong role 403.

/**
 * The routes the app registers, as 'METHOD /path' (HEAD left out where GET implies it), read
 * from app.printRoutes(): buildServer registers them before a test could add an onRoute hook.
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

describe.each(backends())('who may call each route, on %s', (backend) => {
  const { server, ids, callers } = useMatrixApp(backend);
  beforeAll(async () => {
    const loopback = await server.app.inject({ method: 'GET', url: `/api/dev/outbox/${ids.mailId}` });
    expect(loopback.statusCode, 'the development outbox answers this machine').toBe(200);
  });

  it('has every registered route in the table, and no route in the table that is gone', () => {
    const registered = registeredRoutes(server.app);
    expect(registered.length).toBeGreaterThan(40);
    const declared = Object.keys(ROUTE_ACCESS).sort();
    const undeclared = registered.filter((route) => !(route in ROUTE_ACCESS));
    const gone = declared.filter((route) => !registered.includes(route));
    expect(undeclared, 'routes missing from tests/server/route-access-table.ts').toEqual([]);
    expect(gone, 'routes in tests/server/route-access-table.ts that the server no longer has').toEqual([]);
  });

  const routes = Object.entries(ROUTE_ACCESS).map(([route, access]) => [route, describeAccess(access), access] as const);
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
