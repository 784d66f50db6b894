import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK, type JWTPayload } from 'jose';
import { afterAll, beforeAll, expect } from 'vitest';
import { STAFF_SESSION_COOKIE } from '@contract/api/staff-access';
import type { Queryable } from '../../../../src-server/db/connection';
import type { StaffIdentityOptions } from '../../../../src-server/modules/staff-access/routes';
import { cookieBrowser, cookieFrom, type CookieBrowser } from '../../helpers/cookie-browser';
import { useTestApp, type TestApp, type TestAppOptions } from '../../helpers/test-app';

/**
 * A real identity provider's key side for tests: RSA keys from jose, their public halves served
 * as a JWKS over HTTP from a node:http server on a free port, and tokens signed with SignJWT the
 * way Entra ID issues access tokens (iss, aud, oid, roles, groups, preferred_username).
 */

export const ISSUER = 'https://login.example.test/7f3c1d1e-tenant/v2.0';
export const AUDIENCE = 'api://portal-test';

export const ROLE_MAPPING: StaffIdentityOptions['roleMapping'] = {
  roles: {
    'Portal.Staff': 'staff',
    'Portal.Admin': ['admin', 'staff'],
    'Portal.Referrer': 'referrer',
    'Portal.KioskAdmin': 'kioskAdmin',
  },
  groups: { 'b1c5e0d2-radiology-front-desk': 'staff' },
};

export interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

export async function newSigningKey(kid: string): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  return { kid, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' } };
}

export interface TokenOptions {
  key?: SigningKey;
  /** The kid in the header; default the key's. */
  kid?: string;
  issuer?: string;
  audience?: string;
  /** Seconds relative to `now`; default -60 (iat), +3600 (exp); null leaves the claim out. */
  issuedAt?: number;
  expiresIn?: number | null;
  notBefore?: number;
}

export interface TestIdentityProvider {
  readonly options: StaffIdentityOptions;
  /** The key the provider signs with now. */
  readonly key: SigningKey;
  /** Times the JWKS was fetched. */
  readonly fetches: number;
  sign(claims: JWTPayload, now: Date, options?: TokenOptions): Promise<string>;
  /** A new key becomes the signing key; the JWKS serves it (and the old one while `keepOld`). */
  rotate(kid: string, keepOld?: boolean): Promise<SigningKey>;
}

/** Starts the JWKS server in beforeAll and stops it in afterAll; call before useTestApp. */
export function useTestIdentityProvider(): TestIdentityProvider {
  let server: Server | undefined;
  let keys: SigningKey[] = [];
  let jwksUri = '';
  let fetches = 0;
  beforeAll(async () => {
    keys = [await newSigningKey('key-1')];
    server = createServer((request, response) => {
      if (request.url !== '/discovery/v2.0/keys') {
        response.writeHead(404).end();
        return;
      }
      fetches += 1;
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: keys.map((key) => key.publicJwk) }));
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    jwksUri = `http://127.0.0.1:${(server.address() as AddressInfo).port}/discovery/v2.0/keys`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve())));
  });

  const current = (): SigningKey => {
    const key = keys.at(-1);
    if (key === undefined) throw new Error('the test identity provider has not started');
    return key;
  };

  return {
    get options() {
      return { issuer: ISSUER, jwksUri, audience: AUDIENCE, roleMapping: ROLE_MAPPING, jwksCooldownMs: 0 };
    },
    get key() {
      return current();
    },
    get fetches() {
      return fetches;
    },
    async sign(claims, now, options = {}) {
      const key = options.key ?? current();
      const seconds = Math.floor(now.getTime() / 1000);
      let jwt = new SignJWT(claims)
        .setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid: options.kid ?? key.kid })
        .setIssuer(options.issuer ?? ISSUER)
        .setAudience(options.audience ?? AUDIENCE)
        .setIssuedAt(seconds + (options.issuedAt ?? -60));
      if (options.expiresIn !== null) jwt = jwt.setExpirationTime(seconds + (options.expiresIn ?? 3600));
      if (options.notBefore !== undefined) jwt = jwt.setNotBefore(seconds + options.notBefore);
      return jwt.sign(key.privateKey);
    },
    async rotate(kid, keepOld = false) {
      const key = await newSigningKey(kid);
      keys = keepOld ? [...keys, key] : [key];
      return key;
    },
  };
}

/** Entra-like claims of demo people. */
export const STAFF_CLAIMS = {
  oid: '0a8e6f0c-0000-4000-8000-000000000001',
  sub: 'pairwise-sub-staff',
  preferred_username: 'sam.staff@provider.example',
  name: 'Sam Staff',
  organization: 'Harbour Radiology',
  roles: ['Portal.Staff'],
};
export const REFERRER_CLAIMS = {
  oid: '0a8e6f0c-0000-4000-8000-000000000002',
  preferred_username: 'dr.rivera@clinic.example',
  name: 'Dr Ana Rivera',
  given_name: 'Ana',
  family_name: 'Rivera',
  roles: ['Portal.Referrer'],
};
export const ADMIN_CLAIMS = {
  oid: '0a8e6f0c-0000-4000-8000-000000000003',
  preferred_username: 'alex.admin@provider.example',
  roles: ['Portal.Admin'],
};
export const KIOSK_ADMIN_CLAIMS = {
  oid: '0a8e6f0c-0000-4000-8000-000000000004',
  preferred_username: 'ivy.it@provider.example',
  roles: ['Portal.KioskAdmin'],
};
export const NO_ROLE_CLAIMS = {
  oid: '0a8e6f0c-0000-4000-8000-000000000005',
  preferred_username: 'nora.norole@provider.example',
  roles: ['Some.Other.App.Role'],
  groups: ['unmapped-group'],
};

/** The staff cookie's value a response set ('' when cleared), or null. */
export function staffTokenFrom(response: LightMyRequestResponse): string | null {
  return cookieFrom(response, STAFF_SESSION_COOKIE);
}

export interface StaffBrowser extends CookieBrowser {
  signIn(accessToken: string): Promise<LightMyRequestResponse>;
  me(): Promise<LightMyRequestResponse>;
  logout(): Promise<LightMyRequestResponse>;
}

/** A browser as the web client behaves, with the staff cookie: sign-in, who am I, logout. */
export function staffBrowser(app: FastifyInstance, address = '198.51.100.20'): StaffBrowser {
  const browser = cookieBrowser(app, STAFF_SESSION_COOKIE, address);
  return Object.assign(browser, {
    signIn: (accessToken: string) => browser.request('POST', '/api/staff-access/session', { token: accessToken }),
    me: () => browser.request('GET', '/api/staff-access/me'),
    logout: () => browser.request('POST', '/api/staff-access/logout', {}),
  });
}

/** A browser signed in as the person with `claims` (the session is opened, or the test fails there). */
export async function signedInStaff(
  app: FastifyInstance,
  provider: TestIdentityProvider,
  claims: JWTPayload,
  now: Date,
  address?: string,
): Promise<StaffBrowser> {
  const browser = staffBrowser(app, address);
  const response = await browser.signIn(await provider.sign(claims, now));
  expect(response.statusCode, response.body).toBe(200);
  return browser;
}

export interface StaffTestAppOptions extends Omit<TestAppOptions, 'identity'> {
  /** Where each signed-in staff browser comes from (e.g. newClientAddress); default staffBrowser's one address. */
  staffAddress?: () => string;
}

export interface StaffTestApp {
  readonly provider: TestIdentityProvider;
  readonly server: TestApp;
  /** A browser signed in on `server` as the person with `claims`, at the app clock's now. */
  signedIn(claims: JWTPayload, address?: string): Promise<StaffBrowser>;
}

/**
 * The test app with staff sign-in through a test identity provider, the set-up of every file
 * whose tests sign staff in; call it in a describe body like useTestApp.
 */
export function useStaffTestApp(options: StaffTestAppOptions = {}): StaffTestApp {
  const { staffAddress, ...appOptions } = options;
  const provider = useTestIdentityProvider();
  const server = useTestApp({ ...appOptions, identity: () => provider.options });
  return {
    provider,
    server,
    signedIn: (claims, address = staffAddress?.()) => signedInStaff(server.app, provider, claims, server.clock.now(), address),
  };
}

export async function staffSessionCount(db: Queryable): Promise<number> {
  const [row] = await db.query<{ count: number }>(`select count(*)::int as count from staff_session`);
  return row?.count ?? -1;
}

export function expectNoSetCookie(response: LightMyRequestResponse): void {
  expect(response.headers['set-cookie']).toBeUndefined();
}
