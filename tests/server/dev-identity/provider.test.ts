import { createRemoteJWKSet, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { authorizationRequest, browse, CookieJar, exchangeCode, followUntil, formAction, signIn } from './oidc-client';
import { PORTAL_SCOPE, useDevIdentityProvider } from './provider-fixture';

const PORTAL = 'http://127.0.0.1:3999';

const idp = useDevIdentityProvider({ portalUrl: PORTAL });

function account(role: string) {
  const found = idp.accounts.find((candidate) => candidate.roles.includes(role));
  if (found === undefined) throw new Error(`no demo account with ${role}`);
  return found;
}

/** Signs in through the real flow and returns the verified tokens. */
async function signInAndVerify(role: string, redirectPath = '/auth/redirect') {
  const person = account(role);
  const jar = new CookieJar();
  const request = authorizationRequest(idp.issuer, idp.clientId, `${PORTAL}${redirectPath}`, PORTAL_SCOPE);
  const result = await signIn(jar, request, person.username, person.password);
  const code = result.redirectedTo?.searchParams.get('code');
  expect(result.redirectedTo?.searchParams.get('state')).toBe(request.state);
  expect(code).toBeTruthy();
  const tokens = await exchangeCode(idp.issuer, idp.clientId, request, code ?? '', PORTAL);
  expect(tokens.status).toBe(200);
  const jwks = createRemoteJWKSet(new URL(idp.jwksUri));
  const idToken = await jwtVerify(String(tokens.body.id_token), jwks, {
    issuer: idp.issuer,
    audience: idp.clientId,
    algorithms: ['RS256'],
  });
  const accessToken = await jwtVerify(String(tokens.body.access_token), jwks, {
    issuer: idp.issuer,
    audience: 'api://portal',
    algorithms: ['RS256'],
  });
  return { person, request, tokens, idToken, accessToken };
}

describe('local identity provider: authorization code with PKCE', () => {
  it.each([['Portal.Staff'], ['Portal.Admin'], ['Portal.Referrer'], ['Portal.KioskAdmin']])(
    'signs in the %s demo account with verifiable id and access tokens',
    async (role) => {
      const { person, request, tokens, idToken, accessToken } = await signInAndVerify(role);
      expect(tokens.body.token_type).toBe('Bearer');
      expect(tokens.body.refresh_token).toEqual(expect.any(String));
      // The token answer names the access token's scopes, as Entra ID does.
      expect(tokens.body.scope).toBe('api://portal/access_as_user');
      expect(idToken.protectedHeader).toMatchObject({ alg: 'RS256', kid: idp.signingKid() });
      expect(idToken.payload).toMatchObject({
        sub: person.sub,
        oid: person.sub,
        nonce: request.nonce,
        name: person.displayName,
        preferred_username: person.username,
        given_name: person.givenName,
        family_name: person.familyName,
        roles: [role],
      });
      expect(accessToken.protectedHeader).toMatchObject({ alg: 'RS256', typ: 'at+jwt', kid: idp.signingKid() });
      expect(accessToken.payload).toMatchObject({
        sub: person.sub,
        client_id: 'portal-web',
        scope: 'api://portal/access_as_user',
        scp: 'access_as_user',
        name: person.displayName,
        preferred_username: person.username,
        roles: [role],
      });
      expect(accessToken.payload.exp).toBeGreaterThan(Math.floor(Date.now() / 1000));
    },
  );

  it('gives the referring doctor organization, provider number and names in both tokens', async () => {
    const { idToken, accessToken } = await signInAndVerify('Portal.Referrer', '/referrer-access');
    expect(idToken.payload).toMatchObject({
      organization: 'Harbour Street Medical Centre',
      provider_number: '2426711A',
      given_name: 'Riley',
      family_name: 'Referrer',
      name: 'Dr Riley Referrer',
    });
    expect(accessToken.payload).toMatchObject({ organization: 'Harbour Street Medical Centre' });
  });

  it('gives staff no organization claim', async () => {
    const { idToken, accessToken } = await signInAndVerify('Portal.Staff', '/image-viewer-access');
    expect(idToken.payload.organization).toBeUndefined();
    expect(accessToken.payload.organization).toBeUndefined();
  });

  it('refuses a wrong password on the same page with an error and grants nothing', async () => {
    const person = account('Portal.Staff');
    const jar = new CookieJar();
    const request = authorizationRequest(idp.issuer, idp.clientId, `${PORTAL}/auth/redirect`, PORTAL_SCOPE);
    const result = await signIn(jar, request, person.username, `${person.password}-wrong`);
    expect(result.redirectedTo).toBeUndefined();
    expect(result.refusedPage?.status).toBe(401);
    const html = result.refusedPage?.html ?? '';
    expect(html).toContain('role="alert"');
    expect(html).toContain('The username or password is not right.');
    expect(html).toContain('<label for="password">Password</label>');
    expect(html).toContain(`value="${person.username}"`);
    expect(html).not.toContain(person.password);
  });

  it('lets the person try again on the same sign-in after a wrong password', async () => {
    const person = account('Portal.Referrer');
    const jar = new CookieJar();
    const request = authorizationRequest(idp.issuer, idp.clientId, `${PORTAL}/referrer-access`, PORTAL_SCOPE);
    const page = await followUntil(jar, request.url, request.redirectUri);
    const action = formAction(await page.response.text(), page.url);
    const post = (password: string) =>
      browse(jar, action, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ username: person.username, password }).toString(),
      });
    const wrong = await post('not-the-password');
    expect(wrong.status).toBe(401);
    expect(formAction(await wrong.text(), page.url)).toBe(action);
    const right = await post(person.password);
    expect(right.status).toBe(303);
    const resumed = new URL(right.headers.get('location') ?? '', page.url).toString();
    const { url } = await followUntil(jar, resumed, request.redirectUri);
    expect(new URL(url).searchParams.get('code')).toBeTruthy();
  });

  it('refuses an unknown username the same way', async () => {
    const jar = new CookieJar();
    const request = authorizationRequest(idp.issuer, idp.clientId, `${PORTAL}/auth/redirect`, PORTAL_SCOPE);
    const result = await signIn(jar, request, 'nobody@demo-radiology.example', 'whatever-password');
    expect(result.refusedPage?.status).toBe(401);
  });

  it('escapes what it prints back on the sign-in page', async () => {
    const jar = new CookieJar();
    const request = authorizationRequest(idp.issuer, idp.clientId, `${PORTAL}/auth/redirect`, PORTAL_SCOPE);
    const result = await signIn(jar, request, '"><script>alert(1)</script>', 'whatever-password');
    const html = result.refusedPage?.html ?? '';
    expect(html).not.toContain('<script>');
    expect(html).toContain('&quot;&gt;&lt;script&gt;');
  });

  it('refuses a code exchange without the PKCE verifier', async () => {
    const person = account('Portal.Staff');
    const jar = new CookieJar();
    const request = authorizationRequest(idp.issuer, idp.clientId, `${PORTAL}/auth/redirect`, PORTAL_SCOPE);
    const result = await signIn(jar, request, person.username, person.password);
    const code = result.redirectedTo?.searchParams.get('code') ?? '';
    const tokens = await exchangeCode(idp.issuer, idp.clientId, { ...request, codeVerifier: 'x'.repeat(43) }, code, PORTAL);
    expect(tokens.status).toBe(400);
    expect(tokens.body.error).toBe('invalid_grant');
  });

  it('refuses an authorization request without a PKCE challenge', async () => {
    const request = authorizationRequest(idp.issuer, idp.clientId, `${PORTAL}/auth/redirect`, PORTAL_SCOPE);
    const url = new URL(request.url);
    url.searchParams.delete('code_challenge');
    url.searchParams.delete('code_challenge_method');
    const response = await fetch(url, { redirect: 'manual' });
    const location = new URL(response.headers.get('location') ?? '', idp.issuer);
    expect(location.searchParams.get('error')).toBe('invalid_request');
  });

  it('refuses a token for any resource other than the portal API', async () => {
    const request = authorizationRequest(idp.issuer, idp.clientId, `${PORTAL}/auth/redirect`, PORTAL_SCOPE);
    const url = new URL(request.url);
    url.searchParams.set('resource', 'https://other-api.example');
    const response = await fetch(url, { redirect: 'manual' });
    const location = new URL(response.headers.get('location') ?? '', idp.issuer);
    expect(location.searchParams.get('error')).toBe('invalid_target');
  });

  it('refuses a redirect URI that is not registered', async () => {
    const request = authorizationRequest(idp.issuer, idp.clientId, `${PORTAL}/elsewhere`, PORTAL_SCOPE);
    const response = await fetch(request.url, { redirect: 'manual' });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('redirect_uri');
  });

  it('allows the token endpoint from the portal origin only (CORS)', async () => {
    const preflight = await fetch(new URL('/token', idp.issuer), {
      method: 'OPTIONS',
      headers: { origin: PORTAL, 'access-control-request-method': 'POST' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBe(PORTAL);

    const { tokens } = await signInAndVerify('Portal.Staff');
    expect(tokens.headers.get('access-control-allow-origin')).toBe(PORTAL);

    const other = await fetch(new URL('/token', idp.issuer), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://evil.example' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        client_id: idp.clientId,
        refresh_token: String(tokens.body.refresh_token),
      }).toString(),
    });
    expect(other.status).toBe(400);
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('renews tokens with the refresh token, as MSAL does for a silent sign-in', async () => {
    const { tokens, person } = await signInAndVerify('Portal.KioskAdmin');
    const response = await fetch(new URL('/token', idp.issuer), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: PORTAL },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        client_id: idp.clientId,
        refresh_token: String(tokens.body.refresh_token),
        scope: PORTAL_SCOPE,
      }).toString(),
    });
    const renewed = (await response.json()) as Record<string, unknown>;
    expect(renewed).toMatchObject({ token_type: 'Bearer' });
    expect(response.status).toBe(200);
    const jwks = createRemoteJWKSet(new URL(idp.jwksUri));
    const access = await jwtVerify(String(renewed.access_token), jwks, { issuer: idp.issuer, audience: 'api://portal' });
    expect(access.payload.roles).toEqual(['Portal.KioskAdmin']);
    expect(access.payload.sub).toBe(person.sub);
  });
});
