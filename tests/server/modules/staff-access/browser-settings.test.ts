import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { backends } from '../../helpers/database';
import { useTestApp } from '../../helpers/test-app';
import { useTestIdentityProvider } from './identity-kit';

// What the browser's MSAL is told (docs/identity.md#the-browser): the application config carries
// the server's identity settings, and the page's policy lets it reach the identity provider.

const BROWSER = {
  clientId: '8d1c2f3e-portal',
  authority: 'https://login.example.test/7f3c1d1e-tenant',
  scope: 'api://portal-test/access_as_user',
  protocolMode: 'AAD',
} as const;

describe.each(backends())('staff sign-in settings for the browser on %s', (backend) => {
  const provider = useTestIdentityProvider();
  const server = useTestApp({
    backend,
    webRoot: (dir) => writeFileSync(join(dir, 'auth-redirect.html'), '<!doctype html><title>auth-redirect page</title>'),
    identity: () => ({ ...provider.options, browser: BROWSER }),
  });

  it('replaces the stored identity fields of the application config', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/api/config/app' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      identityClientId: BROWSER.clientId,
      identityAuthority: BROWSER.authority,
      identityScope: BROWSER.scope,
      identityProtocolMode: 'AAD',
    });
  });

  it("lets pages connect to and frame the identity provider's origin, and nothing more", async () => {
    const response = await server.app.inject({ method: 'GET', url: '/', headers: { accept: 'text/html' } });
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toMatch(/connect-src 'self'[^;]* https:\/\/login\.example\.test(;|$)/);
    expect(csp).toMatch(/frame-src 'self' https:\/\/login\.example\.test(;|$)/);
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("form-action 'self';");
  });

  it('serves the sign-in return page at /auth/redirect, not the portal page', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/auth/redirect?code=abc&state=xyz', headers: { accept: 'text/html' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.body).toContain('auth-redirect page');
    expect(response.body).not.toContain('portal-config');
  });
});

describe.each(backends())('without staff sign-in configured on %s', (backend) => {
  const server = useTestApp({ backend });

  it('keeps the stored identity fields and a self-only policy', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/api/config/app' });
    expect(response.json()).toMatchObject({ identityClientId: null, identityAuthority: null, identityScope: null });
    expect(String(response.headers['content-security-policy'])).toContain("frame-src 'self';");
  });
});
