import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStaffIdentity, type StaffIdentity } from '../../src-server/staff-identity';
import { fetchTrusting } from '../../src-server/dev-identity/trusted-fetch';
import { testConfig } from './helpers/build-server';
import { backends } from './helpers/database';
import { useTestApp } from './helpers/test-app';
import { authorizationRequest, CookieJar, exchangeCode, signIn } from './dev-identity/oidc-client';
import { PORTAL_SCOPE } from './dev-identity/provider-fixture';
import { staffBrowser } from './modules/staff-access/identity-kit';
import { DEFAULT_ROLE_MAPPING } from './helpers/default-role-mapping';

// What `npm start` wires with DEV_IDENTITY_PORT set (src-server/staff-identity.ts, from
// src-server/config-identity.ts): the local demo provider starts over https beside the server, and
// a person who signs in there through the real code flow gets a staff session with the roles the
// configured mapping gives. The portal reads the provider's keys through the provider's own
// certificate. The default, the provider inside the portal, is in dev-identity/mounted.test.ts.

const PORTAL = 'http://localhost:3000';

describe.each(backends())('staff sign-in through the local demo provider on a port of its own, on %s', (backend) => {
  let staffIdentity: StaffIdentity;
  beforeAll(async () => {
    staffIdentity = await openStaffIdentity(testConfig({ PUBLIC_URL: PORTAL, DEV_IDENTITY_PORT: '0' }), { onError: () => undefined });
  });
  afterAll(async () => {
    await staffIdentity.close();
  });
  const server = useTestApp({ backend, env: { PUBLIC_URL: PORTAL }, identity: () => staffIdentity.identity });

  async function accessTokenOf(username: string, password: string): Promise<string> {
    const identity = staffIdentity.identity;
    if (identity === undefined) throw new Error('no identity');
    const issuer = String(identity.issuer);
    // The test is the browser that has accepted the provider's certificate.
    const trusting = fetchTrusting(staffIdentity.certificate ?? '');
    const jar = new CookieJar(trusting);
    const request = authorizationRequest(issuer, 'portal-web', `${PORTAL}/auth/redirect`, PORTAL_SCOPE);
    const result = await signIn(jar, request, username, password);
    const code = result.redirectedTo?.searchParams.get('code') ?? '';
    const tokens = await exchangeCode(issuer, 'portal-web', request, code, PORTAL, trusting);
    expect(tokens.status).toBe(200);
    return String(tokens.body.access_token);
  }

  it('starts over https, prints the demo accounts, and lets the demo admin open a staff session', async () => {
    expect(staffIdentity.identity?.issuer).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    // The browser signs in at the same provider, in MSAL's OIDC mode.
    expect(staffIdentity.identity?.browser).toEqual({
      clientId: 'portal-web',
      authority: staffIdentity.identity?.issuer,
      scope: 'api://portal/access_as_user',
      protocolMode: 'OIDC',
    });
    expect(staffIdentity.banner.join('\n')).toContain('alex.admin@demo-radiology.example');
    const browser = staffBrowser(server.app);
    expect((await browser.signIn(await accessTokenOf('alex.admin@demo-radiology.example', 'demo-admin-2026'))).statusCode).toBe(200);
    const me = await browser.me();
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ username: 'alex.admin@demo-radiology.example', roles: ['admin'] });
  });

  it('gives the referring doctor the referrer role and a current doctor', async () => {
    const browser = staffBrowser(server.app, '198.51.100.31');
    expect((await browser.signIn(await accessTokenOf('dr.riley.referrer@harbour-medical.example', 'demo-referrer-2026'))).statusCode).toBe(
      200,
    );
    expect((await browser.me()).json()).toMatchObject({ roles: ['referrer'], currentDoctor: { firstName: 'Riley', lastName: 'Referrer' } });
  });
});

describe('staff sign-in settings', () => {
  it('uses the configured provider as given, and starts nothing', async () => {
    const config = testConfig({
      IDENTITY_ISSUER: 'https://login.microsoftonline.com/tenant-id/v2.0',
      IDENTITY_JWKS_URI: 'https://login.microsoftonline.com/tenant-id/discovery/v2.0/keys',
      IDENTITY_CLIENT_ID: '11111111-2222-3333-4444-555555555555',
    });
    const opened = await openStaffIdentity(config);
    expect(opened.identity).toEqual({
      issuer: 'https://login.microsoftonline.com/tenant-id/v2.0',
      jwksUri: 'https://login.microsoftonline.com/tenant-id/discovery/v2.0/keys',
      audience: 'api://11111111-2222-3333-4444-555555555555',
      roleMapping: DEFAULT_ROLE_MAPPING,
      // Only tokens issued to the portal's own client open a session.
      authorizedParties: ['11111111-2222-3333-4444-555555555555'],
      // MSAL's settings: Entra's authority is the issuer without /v2.0.
      browser: {
        clientId: '11111111-2222-3333-4444-555555555555',
        authority: 'https://login.microsoftonline.com/tenant-id',
        scope: 'api://11111111-2222-3333-4444-555555555555/access_as_user',
        protocolMode: 'AAD',
      },
    });
    await opened.close();
  });

  it('is off with DEV_IDENTITY_PORT=off', async () => {
    const opened = await openStaffIdentity(testConfig({ DEV_IDENTITY_PORT: 'off' }));
    expect(opened.identity).toBeUndefined();
    expect(opened.banner.join('\n')).toContain('off');
  });
});
