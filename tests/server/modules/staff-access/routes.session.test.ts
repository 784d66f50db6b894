import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { JWTPayload } from 'jose';
import { beforeEach, describe, expect, it } from 'vitest';
import { STAFF_SESSION_COOKIE } from '@contract/api/staff-access';
import { requireStaffSession, staffRoute, staffSessionOf } from '../../../../src-server/modules/staff-access/public';
import { createStaffAccessRepository } from '../../../../src-server/modules/staff-access/repository';
import { STAFF_SESSION_IDLE_MS, STAFF_SESSION_MAX_MS } from '../../../../src-server/modules/staff-access/service';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '../../../../src-server/platform/plugins/csrf-guard';
import { staffSession } from '../../../../src-server/platform/route-access';
import { backends, SEED_NOW } from '../../helpers/database';
import { useTestApp } from '../../helpers/test-app';
import { authenticate, client, LIAM, mailedCode, sendCode, verifyCode } from '../patient-access/sign-in-kit';
import {
  ADMIN_CLAIMS,
  KIOSK_ADMIN_CLAIMS,
  REFERRER_CLAIMS,
  STAFF_CLAIMS,
  staffBrowser,
  staffSessionCount,
  useStaffTestApp,
} from './identity-kit';

// The staff session's life and the guard other modules call (docs/rules/staff-access.md#sessions,
// #session-guard): 30 minutes idle, 12 hours at most, logout, roles, and no way in with a patient session.

const subjectRef = (subject: string): string => `staff:${createHash('sha256').update(subject).digest('hex').slice(0, 16)}`;

/** Routes as another module would write them, each guarded for some roles. */
function addGuardedRoutes(app: FastifyInstance): void {
  const staffOnly = staffRoute(['staff', 'admin'], ['test']);
  app.get('/api/test/staff-action', staffOnly({}), async (request) => ({ by: staffSessionOf(request).username }));
  app.post('/api/test/kiosk-enrol', { config: { access: staffSession('kioskAdmin') } }, async (request) => {
    const session = await requireStaffSession(request, { anyOf: ['kioskAdmin'] });
    return { by: session.username };
  });
}

describe.each(backends())('staff sessions on %s', (backend) => {
  const { server, signedIn } = useStaffTestApp({ backend, setup: addGuardedRoutes });
  const { clock } = server;
  beforeEach(() => {
    clock.set(SEED_NOW);
  });

  it('ends after 30 minutes idle: 29:59 works and restarts the wait, 30:00 is 401 for good', async () => {
    const browser = await signedIn(STAFF_CLAIMS);
    clock.advance(STAFF_SESSION_IDLE_MS - 1000);
    expect((await browser.me()).statusCode).toBe(200);
    clock.advance(STAFF_SESSION_IDLE_MS - 1000);
    expect((await browser.me()).statusCode).toBe(200);
    clock.advance(STAFF_SESSION_IDLE_MS);
    expect((await browser.me()).statusCode).toBe(401);
    clock.advance(-STAFF_SESSION_IDLE_MS);
    expect((await browser.me()).statusCode, 'an ended session never comes back').toBe(401);
  });

  it('ends 12 hours after sign-in even when kept busy', async () => {
    const browser = await signedIn(STAFF_CLAIMS);
    const start = clock.now().getTime();
    while (clock.now().getTime() + 20 * 60_000 < start + STAFF_SESSION_MAX_MS) {
      clock.advance(20 * 60_000);
      expect((await browser.me()).statusCode).toBe(200);
    }
    clock.set(new Date(start + STAFF_SESSION_MAX_MS));
    expect((await browser.me()).statusCode).toBe(401);
  });

  it('logout deletes the session, clears the cookie and is audited; the old cookie is 401 afterwards', async () => {
    const browser = await signedIn(STAFF_CLAIMS);
    const cookie = browser.token;
    const sessions = await staffSessionCount(server.db);
    const response = await browser.logout();
    expect(response.statusCode).toBe(204);
    expect(String(response.headers['set-cookie'])).toMatch(
      new RegExp(`^${STAFF_SESSION_COOKIE}=; Path=/; Max-Age=0; .*HttpOnly; Secure; SameSite=None; Partitioned$`),
    );
    expect(await staffSessionCount(server.db)).toBe(sessions - 1);
    const [audit] = await server.db.query<{ actor: string }>(
      `select actor from audit_log where action = 'staff_signed_out' order by id desc limit 1`,
    );
    expect(audit?.actor).toBe(subjectRef(STAFF_CLAIMS.oid));
    const replay = await server.app.inject({
      method: 'GET',
      url: '/api/staff-access/me',
      headers: { cookie: `${STAFF_SESSION_COOKIE}=${cookie}` },
    });
    expect(replay.statusCode).toBe(401);
    // Logging out without a session is harmless.
    expect((await staffBrowser(server.app).logout()).statusCode).toBe(204);
  });

  it('refuses a cookie-carrying logout without the portal header (CSRF), and keeps the session', async () => {
    const browser = await signedIn(STAFF_CLAIMS);
    const forged = await server.app.inject({
      method: 'POST',
      url: '/api/staff-access/logout',
      headers: { cookie: `${STAFF_SESSION_COOKIE}=${browser.token}` },
      payload: {},
    });
    expect(forged.statusCode).toBe(403);
    expect((await browser.me()).statusCode).toBe(200);
    const crossSite = await browser.request(
      'POST',
      '/api/staff-access/logout',
      {},
      { 'sec-fetch-site': 'cross-site', [CSRF_HEADER]: CSRF_HEADER_VALUE },
    );
    expect(crossSite.statusCode).toBe(403);
  });

  it('never lets a patient session in: not under its own cookie, nor its token under the staff cookie name', async () => {
    const patient = client(server.app);
    expect((await authenticate(patient, LIAM)).statusCode).toBe(200);
    expect((await sendCode(patient)).statusCode).toBe(202);
    expect((await verifyCode(patient, await mailedCode(server.db, LIAM.email))).statusCode).toBe(200);
    expect(patient.token).not.toBeNull();
    expect((await patient.request('GET', '/api/staff-access/me')).statusCode).toBe(401);
    expect((await patient.request('GET', '/api/test/staff-action')).statusCode).toBe(401);
    const borrowed = await server.app.inject({
      method: 'GET',
      url: '/api/test/staff-action',
      headers: { cookie: `${STAFF_SESSION_COOKIE}=${patient.token}` },
    });
    expect(borrowed.statusCode).toBe(401);
  });

  const cases: [string, JWTPayload | null, { staffAction: number; kioskEnrol: number }][] = [
    ['nobody', null, { staffAction: 401, kioskEnrol: 401 }],
    ['staff', STAFF_CLAIMS, { staffAction: 200, kioskEnrol: 403 }],
    ['an admin', ADMIN_CLAIMS, { staffAction: 200, kioskEnrol: 403 }],
    ['a referring doctor', REFERRER_CLAIMS, { staffAction: 403, kioskEnrol: 403 }],
    ['IT staff', KIOSK_ADMIN_CLAIMS, { staffAction: 403, kioskEnrol: 200 }],
  ];
  it.each(cases)('the guard answers %s by role', async (_who, claims, expected) => {
    const browser = claims === null ? staffBrowser(server.app) : await signedIn(claims);
    const action = await browser.request('GET', '/api/test/staff-action');
    expect(action.statusCode, action.body).toBe(expected.staffAction);
    const enrol = await browser.request('POST', '/api/test/kiosk-enrol', {});
    expect(enrol.statusCode, enrol.body).toBe(expected.kioskEnrol);
  });

  it('audits each refusal of the guard, naming the person by reference (403) or the cookie by a hash (401)', async () => {
    const referrer = await signedIn(REFERRER_CLAIMS);
    expect((await referrer.request('GET', '/api/test/staff-action')).statusCode).toBe(403);
    const [wrongRole] = await server.db.query<{ actor: string; details: Record<string, unknown> }>(
      `select actor, details from audit_log where action = 'authorization_failed' order by id desc limit 1`,
    );
    expect(wrongRole).toMatchObject({
      actor: subjectRef(REFERRER_CLAIMS.oid),
      details: { reason: 'staff_session_wrong_role', route: '/api/test/staff-action', method: 'GET' },
    });
    const stale = 'A'.repeat(43);
    const refused = await server.app.inject({
      method: 'GET',
      url: '/api/test/staff-action',
      headers: { cookie: `${STAFF_SESSION_COOKIE}=${stale}` },
    });
    expect(refused.statusCode).toBe(401);
    const [unknown] = await server.db.query<{ actor: string; details: Record<string, unknown> }>(
      `select actor, details from audit_log where action = 'authorization_failed' order by id desc limit 1`,
    );
    expect(unknown).toMatchObject({
      actor: `staff_session:${createHash('sha256').update(stale).digest('hex').slice(0, 16)}`,
      details: { reason: 'staff_session_ended_or_unknown' },
    });
    expect(JSON.stringify(unknown)).not.toContain(stale);
  });

  it('sweeps ended sessions (idle or past their maximum)', async () => {
    await signedIn(STAFF_CLAIMS);
    clock.advance(STAFF_SESSION_IDLE_MS);
    const removed = await createStaffAccessRepository(server.db).deleteEndedSessions(
      clock.now(),
      new Date(clock.now().getTime() - STAFF_SESSION_IDLE_MS),
    );
    expect(removed).toBeGreaterThan(0);
    expect(await staffSessionCount(server.db)).toBe(0);
  });
});

describe('staff sign-in without a reachable identity provider', () => {
  const server = useTestApp({
    identity: {
      issuer: 'https://login.example.test/t/v2.0',
      jwksUri: 'http://127.0.0.1:9/keys',
      audience: 'api://portal',
      roleMapping: { roles: { 'Portal.Staff': 'staff' } },
    },
  });

  it("answers 503 (not the caller's fault) and opens nothing", async () => {
    const token = 'eyJhbGciOiJSUzI1NiIsImtpZCI6ImsxIn0.eyJzdWIiOiJ4In0.c2ln';
    const response = await staffBrowser(server.app).signIn(token);
    expect(response.statusCode, response.body).toBe(503);
    expect(response.headers['set-cookie']).toBeUndefined();
  });
});

describe('a server without staff sign-in', () => {
  const server = useTestApp({ setup: addGuardedRoutes });

  it('has no staff-access routes, and every staff guard answers 401', async () => {
    expect((await server.app.inject({ method: 'GET', url: '/api/staff-access/me' })).statusCode).toBe(404);
    const response = await server.app.inject({
      method: 'GET',
      url: '/api/test/staff-action',
      headers: { cookie: `${STAFF_SESSION_COOKIE}=${'B'.repeat(43)}` },
    });
    expect(response.statusCode).toBe(401);
  });
});
