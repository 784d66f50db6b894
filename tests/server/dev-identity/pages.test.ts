import { describe, expect, it } from 'vitest';
import { authorizationRequest, browse, CookieJar, followUntil, formAction } from './oidc-client';
import { PORTAL_SCOPE, useDevIdentityProvider } from './provider-fixture';

const PORTAL = 'http://127.0.0.1:3997';

const idp = useDevIdentityProvider({ portalUrl: PORTAL });

async function openSignInPage(jar = new CookieJar()) {
  const request = authorizationRequest(idp.issuer, idp.clientId, `${PORTAL}/auth/redirect`, PORTAL_SCOPE);
  const page = await followUntil(jar, request.url, request.redirectUri);
  return { jar, request, page, html: await page.response.text() };
}

describe('local identity provider: sign-in page', () => {
  it('is an accessible English form without script, under a strict content security policy', async () => {
    const { page, html } = await openSignInPage();
    expect(page.response.status).toBe(200);
    expect(page.url).toMatch(new RegExp(`^${idp.issuer}/interaction/[A-Za-z0-9_-]+$`));
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('<label for="username">Username</label>');
    expect(html).toContain('<input id="username" name="username" type="text" required');
    expect(html).toContain('<label for="password">Password</label>');
    expect(html).toContain('<input id="password" name="password" type="password" required');
    expect(html).toContain('<button type="submit">Sign in</button>');
    expect(html).not.toMatch(/<script|\son[a-z]+=/i);
    const csp = page.response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain(`form-action 'self' ${PORTAL}`);
    expect(page.response.headers.get('cache-control')).toBe('no-store');
  });

  it('serves its stylesheet', async () => {
    const response = await fetch(new URL('/dev-identity/style.css', idp.issuer));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/css');
  });

  it('refuses a login post without the interaction cookie and grants nothing', async () => {
    const { page, html } = await openSignInPage();
    const person = idp.accounts[0];
    const response = await browse(new CookieJar(), formAction(html, page.url), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: person?.username ?? '', password: person?.password ?? '' }).toString(),
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    expect(await response.text()).toContain('The sign-in has expired or was not started here.');
  });

  it("refuses a login post to another sign-in's address", async () => {
    const jar = new CookieJar();
    const first = await openSignInPage(jar);
    const second = await openSignInPage(jar);
    const person = idp.accounts[0];
    // The jar now holds the second sign-in's cookie; the first form's address must not accept it.
    const response = await browse(jar, formAction(first.html, first.page.url), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: person?.username ?? '', password: person?.password ?? '' }).toString(),
    });
    expect(second.page.url).not.toBe(first.page.url);
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
  });

  it('refuses a login sent as JSON', async () => {
    const { jar, page, html } = await openSignInPage();
    const response = await browse(jar, formAction(html, page.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'x', password: 'y' }),
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('The sign-in form must be sent as a form.');
  });

  it('answers 405 to a GET on the login address', async () => {
    const { jar, page, html } = await openSignInPage();
    const response = await browse(jar, formAction(html, page.url));
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
  });
});

describe('local identity provider: sign-out', () => {
  it('asks on an English page and ends the provider session', async () => {
    const jar = new CookieJar();
    const { page, html, request } = await openSignInPage(jar);
    const person = idp.accounts[0];
    const submitted = await browse(jar, formAction(html, page.url), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: person?.username ?? '', password: person?.password ?? '' }).toString(),
    });
    await followUntil(jar, new URL(submitted.headers.get('location') ?? '', page.url).toString(), request.redirectUri);

    const logout = await browse(jar, new URL(`/session/end?client_id=${idp.clientId}`, idp.issuer).toString());
    const logoutHtml = await logout.text();
    expect(logout.status).toBe(200);
    expect(logoutHtml).toContain('<html lang="en">');
    expect(logoutHtml).toContain('Yes, sign me out');
    const form = /<form[^>]*action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/.exec(logoutHtml);
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(form?.[2] ?? '')?.[1] ?? '';
    const confirmed = await browse(jar, new URL(form?.[1] ?? '', idp.issuer).toString(), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ xsrf, logout: 'yes' }).toString(),
    });
    const done = await followUntil(jar, new URL(confirmed.headers.get('location') ?? '', idp.issuer).toString(), 'http://never');
    expect(await done.response.text()).toContain('You are signed out');

    // The provider no longer knows the person: a silent request now needs a sign-in.
    const silent = authorizationRequest(idp.issuer, idp.clientId, `${PORTAL}/auth/redirect`, 'openid profile');
    const url = new URL(silent.url);
    url.searchParams.set('prompt', 'none');
    const { url: landed } = await followUntil(jar, url.toString(), silent.redirectUri);
    expect(new URL(landed).searchParams.get('error')).toBe('login_required');
  });
});
