import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { createOutboxRepository } from '../../src-server/platform/outbox/outbox-repository';
import { backends } from './helpers/database';
import { useTestApp } from './helpers/test-app';
import { ACCESS_REFUSAL, ROUTE_ACCESS, type Access } from './route-access-table';

// The route-and-role test: every route the built app registers is in route-access-table.ts with
// who may call it, and each guarded route refuses an anonymous caller from another machine.

const LIAM_KEY = 'DQZGrZ3wpC5qCgHhYxQeMw';
const REQUEST_KEY = 'pVC8vuYWYJuWi6jKwcf5Cg';
/** Not loopback: the development outbox answers only this machine. */
const ANONYMOUS_ADDRESS = '203.0.113.9';

/** Staff sign-in registered, so its routes are in the matrix; an anonymous caller never makes it fetch keys. */
const STAFF_IDENTITY = {
  issuer: 'https://login.example.test/route-access/v2.0',
  jwksUri: 'http://127.0.0.1:9/keys',
  audience: 'api://portal-route-access',
  roleMapping: { roles: { 'Portal.Staff': 'staff' as const } },
};

/** A sample value per path parameter; real resources, so a refusal is not a mere "not found". */
const ROUTE_PARAMS: Record<string, (access: Access, ids: { appointmentId: string; mailId: string }) => string> = {
  bookingKey: (access) => (access === 'appointment-session' ? LIAM_KEY : REQUEST_KEY),
  appointmentSlug: (_access, ids) => ids.appointmentId,
  id: (access, ids) => (access === 'dev-loopback' ? ids.mailId : '1'),
  index: () => '0',
  name: () => 'logo.png',
  postcode: () => '2150',
  holdId: () => 'AAAAAAAAAAAAAAAAAAAAAA',
  source: () => 'medications',
};

/** A valid body where a route validates it before the access check (so the refusal, not a 400, is what is tested). */
const ROUTE_BODIES: Record<string, object> = {
  'POST /api/patient-access/otp': { channel: 'EMAIL' },
  'POST /api/patient-access/otp/verify': { code: '123456' },
};

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
  const server = useTestApp({ backend, env: { MAIL_DEV_OUTBOX_ENABLED: 'true' }, identity: STAFF_IDENTITY });
  let appointmentId = '';
  let mailId = '';
  beforeAll(async () => {
    const [row] = await server.db.query<{ id: string }>(`select id::text as id from appointment where booking_key = $1 limit 1`, [
      LIAM_KEY,
    ]);
    appointmentId = row?.id ?? '';
    // A mail in the outbox, so the development outbox's 404 is a refusal, not "no such mail".
    const id = await createOutboxRepository(server.db).enqueue(
      { kind: 'booking_confirmation', recipient: 'route.access@example.com', subject: 'Route access', text: 'Route access' },
      server.clock.now(),
    );
    mailId = String(id);
    const loopback = await server.app.inject({ method: 'GET', url: `/api/dev/outbox/${mailId}` });
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

  const guarded = Object.entries(ROUTE_ACCESS).filter((entry): entry is [string, Exclude<Access, 'public'>] => entry[1] !== 'public');
  it.each(guarded)('refuses an anonymous caller: %s (%s)', async (route, access) => {
    const [method = 'GET', pattern = ''] = route.split(' ');
    const url = pattern.replace(/:(\w+)/g, (_, name: string) => {
      const sample = ROUTE_PARAMS[name];
      if (sample === undefined) throw new Error(`add a sample value for :${name} to ROUTE_PARAMS`);
      return encodeURIComponent(sample(access, { appointmentId, mailId }));
    });
    const response = await server.app.inject({
      method: method as 'GET' | 'POST' | 'PUT' | 'DELETE',
      url,
      remoteAddress: ANONYMOUS_ADDRESS,
      ...(method === 'GET' || method === 'DELETE' ? {} : { payload: ROUTE_BODIES[route] ?? {} }),
    });
    expect(response.statusCode, `${route}: ${response.body}`).toBe(ACCESS_REFUSAL[access]);
  });
});
