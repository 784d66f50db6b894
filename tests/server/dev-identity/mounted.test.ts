import { describe, expect, it } from 'vitest';
import { portalOriginPolicy } from '../../../src-server/dev-identity/portal-origins';
import { useMountedStaffIdentity } from '../helpers/mounted-identity';
import { backends } from '../helpers/database';
import { useTestApp } from '../helpers/test-app';
import { staffBrowser } from '../modules/staff-access/identity-kit';
import { authorizationRequest, browse, CookieJar, exchangeCode, followUntil, signIn } from './oidc-client';
import { PORTAL_SCOPE } from './provider-fixture';

// The default of `npm start` (docs/identity.md#local-identity-provider): the demo provider
// inside the portal under /dev/idp, plain http on the portal's own origin, so a newcomer has no
// certificate to accept; the portal opened as localhost or 127.0.0.1 (or the machine's address)
// signs in and comes back there, and no other site can be a redirect target.

describe('which origins the demo provider inside the portal sends sign-ins back to', () => {
  const allowed = portalOriginPolicy('http://localhost:3000');
  it.each(['http://localhost:3000', 'http://127.0.0.1:3000', 'http://192.168.1.20:3000', 'http://[::1]:3000'])('accepts %s', (origin) => {
    expect(allowed(origin)).toBe(true);
  });
  it.each([
    ['another site', 'http://evil.example:3000'],
    ['a name that only looks local', 'http://localhost.evil.example:3000'],
    ['another port', 'http://127.0.0.1:3001'],
    ['another scheme', 'https://127.0.0.1:3000'],
    ['a path smuggled in', 'http://127.0.0.1:3000/x'],
    ['no URL at all', 'javascript:alert(1)'],
  ])('refuses %s', (_case, origin) => {
    expect(allowed(origin)).toBe(false);
  });
});

describe.each(backends())('staff sign-in through the demo provider inside the portal, on %s', (backend) => {
  const mounted = useMountedStaffIdentity({ host: 'localhost' });
  const app = useTestApp({ backend, identity: () => mounted.staffIdentity.identity });

  /** The provider as a browser on `origin` reaches it: the same server, under that host name. */
  const issuerAt = (origin: string): string => `${origin}/dev/idp`;

  async function accessTokenOf(origin: string, username: string, password: string): Promise<string> {
    const jar = new CookieJar();
    const request = authorizationRequest(issuerAt(origin), 'portal-web', `${origin}/auth/redirect`, PORTAL_SCOPE);
    const result = await signIn(jar, request, username, password);
    const code = result.redirectedTo?.searchParams.get('code') ?? '';
    const tokens = await exchangeCode(issuerAt(origin), 'portal-web', request, code, origin);
    expect(tokens.status, JSON.stringify(tokens.body)).toBe(200);
    return String(tokens.body.access_token);
  }

  it('is the default: PUBLIC_URL plus /dev/idp is the issuer, the browser is told the site path, and no certificate', () => {
    expect(mounted.staffIdentity.identity?.issuer).toBe(`${mounted.portal}/dev/idp`);
    expect(mounted.staffIdentity.identity?.browser).toEqual({
      clientId: 'portal-web',
      authority: '/dev/idp',
      scope: 'api://portal/access_as_user',
      protocolMode: 'OIDC',
    });
    expect(mounted.staffIdentity.certificate).toBeNull();
    expect(mounted.staffIdentity.mounted).not.toBeNull();
    expect(mounted.staffIdentity.banner.join('\n')).not.toContain('self-signed');
  });

  it('answers discovery on the origin it is reached with, keeping one issuer', async () => {
    const other = mounted.portal.replace('localhost', '127.0.0.1');
    const discovery = (await (await fetch(`${issuerAt(other)}/.well-known/openid-configuration`)).json()) as Record<string, string>;
    expect(discovery.issuer).toBe(`${mounted.portal}/dev/idp`);
    expect(discovery.authorization_endpoint).toBe(`${other}/dev/idp/auth`);
    expect(discovery.token_endpoint).toBe(`${other}/dev/idp/token`);
  });

  it.each(['localhost', '127.0.0.1'])(
    'signs the demo admin in from http://%s and the portal opens a staff session with its keys read in-process',
    async (host) => {
      const origin = mounted.portal.replace('localhost', host);
      const browser = staffBrowser(app.app);
      expect((await browser.signIn(await accessTokenOf(origin, 'alex.admin@demo-radiology.example', 'demo-admin-2026'))).statusCode).toBe(
        200,
      );
      expect((await browser.me()).json()).toMatchObject({ username: 'alex.admin@demo-radiology.example', roles: ['admin'] });
    },
  );

  it('refuses to send a sign-in to another site, and never shows it the sign-in form', async () => {
    const jar = new CookieJar();
    const request = authorizationRequest(issuerAt(mounted.portal), 'portal-web', 'http://evil.example/auth/redirect', PORTAL_SCOPE);
    const { response, url } = await followUntil(jar, request.url, 'http://evil.example');
    expect(url.startsWith('http://evil.example')).toBe(false);
    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(/redirect_uri/);
  });

  it('refuses a redirect to a page of the portal that is not a sign-in page', async () => {
    const jar = new CookieJar();
    const request = authorizationRequest(issuerAt(mounted.portal), 'portal-web', `${mounted.portal}/about`, PORTAL_SCOPE);
    const { response } = await followUntil(jar, request.url, `${mounted.portal}/about`);
    expect(response.status).toBe(400);
  });

  it('serves its pages with the same opener policy as the portal, so the sign-in popup keeps its opener', async () => {
    const response = await browse(new CookieJar(), `${issuerAt(mounted.portal)}/.well-known/openid-configuration`);
    expect(response.headers.get('cross-origin-opener-policy')).toBe('same-origin');
  });
});
