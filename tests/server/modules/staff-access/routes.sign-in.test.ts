import { createHash } from 'node:crypto';
import { exportSPKI, importJWK, SignJWT, type CryptoKey } from 'jose';
import { beforeEach, describe, expect, it } from 'vitest';
import { STAFF_SESSION_COOKIE } from '@contract/api/staff-access';
import { backends, SEED_NOW } from '../../helpers/database';
import { expectHostSessionCookie, parseSetCookie } from '../../helpers/cookie-browser';
import { useTestApp } from '../../helpers/test-app';
import {
  ADMIN_CLAIMS,
  AUDIENCE,
  expectNoSetCookie,
  ISSUER,
  newSigningKey,
  NO_ROLE_CLAIMS,
  REFERRER_CLAIMS,
  STAFF_CLAIMS,
  staffBrowser,
  staffSessionCount,
  useTestIdentityProvider,
  type TestIdentityProvider,
} from './identity-kit';

// Staff sign-in (docs/rules/staff-access.md#sign-in): a real JWKS served over HTTP, real RS256
// tokens; only a token with a valid signature, issuer, audience and lifetime opens a session.

const subjectRef = (subject: string): string => `staff:${createHash('sha256').update(subject).digest('hex').slice(0, 16)}`;

/** Flips one character of the payload part: the signature no longer matches. */
function tamper(token: string): string {
  const [header = '', payload = '', signature = ''] = token.split('.');
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
  claims.roles = ['Portal.Admin'];
  return [header, Buffer.from(JSON.stringify(claims)).toString('base64url'), signature].join('.');
}

describe.each(backends())('staff sign-in on %s', (backend) => {
  const provider: TestIdentityProvider = useTestIdentityProvider();
  const server = useTestApp({ backend, identity: () => provider.options });
  const { clock } = server;
  const now = (): Date => clock.now();
  beforeEach(() => {
    clock.set(SEED_NOW);
  });

  async function auditRows(since: number): Promise<{ actor: string; action: string; details: Record<string, unknown> }[]> {
    return server.db.query(`select actor, action, details from audit_log where id > $1 order by id`, [since]);
  }
  async function lastAuditId(): Promise<number> {
    const [row] = await server.db.query<{ id: number }>(`select coalesce(max(id), 0)::int as id from audit_log`);
    return row?.id ?? 0;
  }

  it('opens a session for a valid token: a __Host- cookie with a new 256-bit token per sign-in, and /me answers the user', async () => {
    const since = await lastAuditId();
    const browser = staffBrowser(server.app);
    const token = await provider.sign(STAFF_CLAIMS, now());
    const response = await browser.signIn(token);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      username: 'sam.staff@provider.example',
      organization: 'Harbour Radiology',
      currentDoctor: null,
      userId: STAFF_CLAIMS.oid,
      roles: ['staff'],
    });
    const cookie = parseSetCookie(response);
    expect(cookie.name).toBe(STAFF_SESSION_COOKIE);
    expectHostSessionCookie(cookie, '__Host-portal_staff_session');

    const me = await browser.me();
    expect(me.statusCode).toBe(200);
    expect(me.headers['cache-control']).toBe('no-store');
    expect(me.json()).toMatchObject({ username: 'sam.staff@provider.example', roles: ['staff'] });

    // Only the sha256 of the cookie token is stored; the access token nowhere.
    const [stored] = await server.db.query<{ tokenSha256: string; subject: string }>(
      `select token_sha256 as "tokenSha256", subject from staff_session where subject = $1`,
      [STAFF_CLAIMS.oid],
    );
    expect(stored?.tokenSha256).toBe(createHash('sha256').update(cookie.value).digest('hex'));
    const audit = await auditRows(since);
    expect(audit).toEqual([{ actor: subjectRef(STAFF_CLAIMS.oid), action: 'staff_signed_in', details: { roles: ['staff'] } }]);
    const everything = JSON.stringify(await server.db.query(`select * from audit_log`));
    expect(everything).not.toContain(token.split('.')[2]);
    expect(everything).not.toContain(cookie.value);

    // Signing in again (the same browser) rotates the token: the earlier cookie is dead.
    const first = browser.token;
    expect((await browser.signIn(await provider.sign(STAFF_CLAIMS, now()))).statusCode).toBe(200);
    expect(browser.token).not.toBe(first);
    expect((await browser.me()).statusCode).toBe(200);
    const old = await server.app.inject({
      method: 'GET',
      url: '/api/staff-access/me',
      headers: { cookie: `${STAFF_SESSION_COOKIE}=${first}` },
    });
    expect(old.statusCode).toBe(401);
  });

  it('names a referring doctor as the current doctor, and maps groups as well as app roles', async () => {
    const referrer = await staffBrowser(server.app).signIn(await provider.sign(REFERRER_CLAIMS, now()));
    expect(referrer.json()).toEqual({
      username: 'dr.rivera@clinic.example',
      organization: null,
      currentDoctor: { firstName: 'Ana', lastName: 'Rivera' },
      userId: REFERRER_CLAIMS.oid,
      roles: ['referrer'],
    });
    const admin = await staffBrowser(server.app).signIn(await provider.sign(ADMIN_CLAIMS, now()));
    expect(admin.json()).toMatchObject({ roles: ['staff', 'admin'] });
    const byGroup = await staffBrowser(server.app).signIn(
      await provider.sign(
        { sub: 'group-member', preferred_username: 'g@provider.example', groups: ['b1c5e0d2-radiology-front-desk'] },
        now(),
      ),
    );
    expect(byGroup.statusCode).toBe(200);
    expect(byGroup.json()).toMatchObject({ userId: 'group-member', roles: ['staff'] });
  });

  const refusals: [string, (provider: TestIdentityProvider, now: Date) => Promise<string>, string][] = [
    ['expired', (p, at) => p.sign(STAFF_CLAIMS, at, { issuedAt: -7200, expiresIn: -120 }), 'expired'],
    ['not yet valid', (p, at) => p.sign(STAFF_CLAIMS, at, { notBefore: 600 }), 'not_yet_valid'],
    ['without an expiry', (p, at) => p.sign(STAFF_CLAIMS, at, { expiresIn: null }), 'bad_claims'],
    [
      'from another issuer',
      (p, at) => p.sign(STAFF_CLAIMS, at, { issuer: 'https://login.example.test/other-tenant/v2.0' }),
      'wrong_issuer',
    ],
    ['for another audience', (p, at) => p.sign(STAFF_CLAIMS, at, { audience: 'api://another-app' }), 'wrong_audience'],
    [
      'signed HS256 with the public key as the secret',
      async (p, at) => {
        // The classic confusion attack: a verifier that let the token pick the algorithm would check
        // this HMAC with the provider's public key, which everyone can read from the JWKS.
        const publicKey = (await importJWK(p.key.publicJwk, 'RS256', { extractable: true })) as CryptoKey;
        const publicPem = await exportSPKI(publicKey);
        const seconds = Math.floor(at.getTime() / 1000);
        return new SignJWT(STAFF_CLAIMS)
          .setProtectedHeader({ alg: 'HS256', kid: p.key.kid })
          .setIssuer(ISSUER)
          .setAudience(AUDIENCE)
          .setIssuedAt(seconds - 60)
          .setExpirationTime(seconds + 3600)
          .sign(new TextEncoder().encode(publicPem));
      },
      'wrong_algorithm',
    ],
    ['with a tampered payload', async (p, at) => tamper(await p.sign(STAFF_CLAIMS, at)), 'bad_signature'],
    ['naming a key the provider does not have', (p, at) => p.sign(STAFF_CLAIMS, at, { kid: 'no-such-key' }), 'unknown_key'],
    [
      'signed by another key under the provider key id',
      async (p, at) => p.sign(STAFF_CLAIMS, at, { key: await newSigningKey(p.key.kid) }),
      'bad_signature',
    ],
    [
      'signed by another key under its own key id',
      async (p, at) => p.sign(STAFF_CLAIMS, at, { key: await newSigningKey('attacker-key') }),
      'unknown_key',
    ],
  ];

  it.each(refusals)('refuses a token %s with 401, stores nothing and audits why', async (_name, makeToken, reason) => {
    const sessions = await staffSessionCount(server.db);
    const since = await lastAuditId();
    const token = await makeToken(provider, now());
    const response = await staffBrowser(server.app).signIn(token);
    expect(response.statusCode, response.body).toBe(401);
    expect(response.json()).toMatchObject({ code: 'unauthorized' });
    expectNoSetCookie(response);
    expect(await staffSessionCount(server.db)).toBe(sessions);
    const audit = await auditRows(since);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      actor: expect.stringMatching(/^client:[0-9a-f]{16}$/) as unknown,
      action: 'authorization_failed',
      details: { reason: `staff_sign_in_${reason}`, route: '/api/staff-access/session', method: 'POST' },
    });
    expect(JSON.stringify(audit)).not.toContain(token.split('.')[1]);
  });

  it('refuses a valid token whose claims map to no portal role with 403, naming the person only by reference', async () => {
    const sessions = await staffSessionCount(server.db);
    const since = await lastAuditId();
    const response = await staffBrowser(server.app).signIn(await provider.sign(NO_ROLE_CLAIMS, now()));
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: 'forbidden' });
    expectNoSetCookie(response);
    expect(await staffSessionCount(server.db)).toBe(sessions);
    expect(await auditRows(since)).toEqual([
      { actor: subjectRef(NO_ROLE_CLAIMS.oid), action: 'staff_sign_in_failed', details: { reason: 'no_role' } },
    ]);
  });

  it('refuses a body that is not a token with 400 before anything is fetched', async () => {
    const fetches = provider.fetches;
    for (const payload of [{}, { token: '' }, { token: 'not a jwt' }, { token: 'a.b.c'.repeat(4000) }]) {
      const response = await staffBrowser(server.app).request('POST', '/api/staff-access/session', payload);
      expect(response.statusCode, JSON.stringify(payload).slice(0, 40)).toBe(400);
    }
    expect(provider.fetches).toBe(fetches);
  });

  it('picks up a key rotation at the provider without a restart, and keeps the key set cached in between', async () => {
    const before = provider.fetches;
    expect((await staffBrowser(server.app).signIn(await provider.sign(STAFF_CLAIMS, now()))).statusCode).toBe(200);
    expect((await staffBrowser(server.app).signIn(await provider.sign(STAFF_CLAIMS, now()))).statusCode).toBe(200);
    expect(provider.fetches, 'a known key is served from the cache').toBe(before);

    const oldKey = provider.key;
    await provider.rotate(`key-rotated-${backend}`);
    const response = await staffBrowser(server.app).signIn(await provider.sign(STAFF_CLAIMS, now()));
    expect(response.statusCode, response.body).toBe(200);
    expect(provider.fetches).toBe(before + 1);
    // The provider no longer serves the retired key, and the refetched set replaced the cached one.
    expect((await staffBrowser(server.app).signIn(await provider.sign(STAFF_CLAIMS, now(), { key: oldKey }))).statusCode).toBe(401);
  });
});
