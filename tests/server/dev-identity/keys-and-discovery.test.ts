import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { authorizationRequest, browse, CookieJar, exchangeCode, followUntil, formAction, signIn } from './oidc-client';
import { PORTAL_SCOPE, useDevIdentityProvider } from './provider-fixture';

const PORTAL = 'http://127.0.0.1:3998';

const idp = useDevIdentityProvider({ portalUrl: PORTAL });

async function accessTokenFor(role: string, jar = new CookieJar()): Promise<string> {
  const person = idp.accounts.find((candidate) => candidate.roles.includes(role));
  if (person === undefined) throw new Error(`no demo account with ${role}`);
  const request = authorizationRequest(idp.issuer, idp.clientId, `${PORTAL}/auth/redirect`, PORTAL_SCOPE);
  const result = await signIn(jar, request, person.username, person.password);
  const tokens = await exchangeCode(idp.issuer, idp.clientId, request, result.redirectedTo?.searchParams.get('code') ?? '', PORTAL);
  return String(tokens.body.access_token);
}

const verifyOptions = () => ({ issuer: idp.issuer, audience: 'api://portal', algorithms: ['RS256'] });

describe('local identity provider: discovery', () => {
  it('publishes what MSAL reads from the discovery document, readable from the portal page', async () => {
    const response = await fetch(new URL('/.well-known/openid-configuration', idp.issuer), {
      headers: { origin: PORTAL },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe(PORTAL);
    const document = (await response.json()) as Record<string, unknown>;
    expect(document).toMatchObject({
      issuer: idp.issuer,
      authorization_endpoint: `${idp.issuer}/auth`,
      token_endpoint: `${idp.issuer}/token`,
      jwks_uri: idp.jwksUri,
      userinfo_endpoint: `${idp.issuer}/me`,
      end_session_endpoint: `${idp.issuer}/session/end`,
      code_challenge_methods_supported: ['S256'],
      response_types_supported: ['code'],
    });
    expect(document.id_token_signing_alg_values_supported).toContain('RS256');
    expect(document.scopes_supported).toEqual(expect.arrayContaining(['openid', 'profile', 'offline_access']));
    expect(document.response_modes_supported).toEqual(expect.arrayContaining(['query', 'fragment']));
  });
});

describe('local identity provider: single sign-on', () => {
  it('answers a prompt=none request with a code when the person is signed in (MSAL silent sign-in)', async () => {
    const jar = new CookieJar();
    await accessTokenFor('Portal.Staff', jar);
    const silent = authorizationRequest(idp.issuer, idp.clientId, `${PORTAL}/auth/redirect`, 'openid profile');
    const url = new URL(silent.url);
    url.searchParams.set('prompt', 'none');
    const { url: landed } = await followUntil(jar, url.toString(), silent.redirectUri);
    expect(new URL(landed).searchParams.get('code')).toBeTruthy();
  });

  it('answers login_required to a prompt=none request without a provider session', async () => {
    const silent = authorizationRequest(idp.issuer, idp.clientId, `${PORTAL}/auth/redirect`, 'openid profile');
    const url = new URL(silent.url);
    url.searchParams.set('prompt', 'none');
    const { url: landed } = await followUntil(new CookieJar(), url.toString(), silent.redirectUri);
    expect(new URL(landed).searchParams.get('error')).toBe('login_required');
  });
});

describe('local identity provider: signing key rotation', () => {
  it('signs with a new published key after rotateKeys(), and the refetched JWKS verifies it', async () => {
    // cooldownDuration 0: refetch as soon as a token names an unknown kid (jose waits 30 s by default).
    const jwks = createRemoteJWKSet(new URL(idp.jwksUri), { cooldownDuration: 0 });
    const before = await accessTokenFor('Portal.Admin');
    const oldKid = idp.signingKid();
    expect(decodeProtectedHeader(before).kid).toBe(oldKid);
    await jwtVerify(before, jwks, verifyOptions());

    const newKid = await idp.rotateKeys();
    expect(newKid).not.toBe(oldKid);
    expect(idp.signingKid()).toBe(newKid);

    const published = (await (await fetch(idp.jwksUri)).json()) as { keys: { kid: string; d?: string }[] };
    expect(published.keys.map((key) => key.kid)).toEqual([newKid, oldKid]);
    expect(published.keys.every((key) => key.d === undefined)).toBe(true);

    const after = await accessTokenFor('Portal.Admin');
    expect(decodeProtectedHeader(after).kid).toBe(newKid);
    const verified = await jwtVerify(after, jwks, verifyOptions());
    expect(verified.payload.roles).toEqual(['Portal.Admin']);
    // Tokens issued before the rotation still verify: the previous key stays published.
    await jwtVerify(before, jwks, verifyOptions());
  });

  it('keeps only the signing key and the one before it published', async () => {
    const first = await accessTokenFor('Portal.Staff');
    await idp.rotateKeys();
    await idp.rotateKeys();
    const fresh = createRemoteJWKSet(new URL(idp.jwksUri));
    await expect(jwtVerify(first, fresh, verifyOptions())).rejects.toThrow(/no applicable key/i);
  });

  it('keeps a sign-in under way across a rotation', async () => {
    const person = idp.accounts[0];
    if (person === undefined) throw new Error('no demo account');
    const jar = new CookieJar();
    const request = authorizationRequest(idp.issuer, idp.clientId, `${PORTAL}/auth/redirect`, PORTAL_SCOPE);
    const loginPage = await followUntil(jar, request.url, request.redirectUri);
    expect(loginPage.response.status).toBe(200);
    const action = formAction(await loginPage.response.text(), loginPage.url);
    await idp.rotateKeys();
    const submitted = await browse(jar, action, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: person.username, password: person.password }).toString(),
    });
    expect(submitted.status).toBe(303);
    const resumed = new URL(submitted.headers.get('location') ?? '', loginPage.url).toString();
    const { url: landed } = await followUntil(jar, resumed, request.redirectUri);
    expect(new URL(landed).searchParams.get('code')).toBeTruthy();
  });
});
