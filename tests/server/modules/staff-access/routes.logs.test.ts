import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../helpers/test-app';
import { STAFF_CLAIMS, staffBrowser, useTestIdentityProvider } from './identity-kit';

// Tokens never reach logs (docs/rules/staff-access.md#sessions): neither the access token the
// browser hands over, nor the session cookie, whether the sign-in works or fails.

describe('staff sign-in in the log and the API document', () => {
  const provider = useTestIdentityProvider();
  const server = useTestApp({ identity: () => provider.options, log: 'debug' });

  it('logs a sign-in, a refused token, /me and logout without a token, cookie or claim value', async () => {
    const browser = staffBrowser(server.app);
    const token = await provider.sign(STAFF_CLAIMS, server.clock.now());
    expect((await browser.signIn(token)).statusCode).toBe(200);
    const cookie = browser.token ?? '';
    expect((await browser.me()).statusCode).toBe(200);
    const refused = await provider.sign(STAFF_CLAIMS, server.clock.now(), { audience: 'api://another-app' });
    expect((await staffBrowser(server.app).signIn(refused)).statusCode).toBe(401);
    expect((await browser.logout()).statusCode).toBe(204);

    const log = server.log.text();
    expect(log).toContain('/api/staff-access/session');
    for (const secret of [...token.split('.'), ...refused.split('.'), cookie, STAFF_CLAIMS.preferred_username, STAFF_CLAIMS.oid]) {
      expect(secret.length).toBeGreaterThan(10);
      expect(log).not.toContain(secret);
    }
  });

  it('describes its routes, with who may call them, in the OpenAPI document', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const paths = (response.json() as { paths: Record<string, Record<string, { summary?: string }>> }).paths;
    expect(paths['/api/staff-access/session']?.post?.summary).toMatch(/^Anyone holding an access token/);
    expect(paths['/api/staff-access/me']?.get?.summary).toMatch(/^A signed-in staff session/);
    expect(paths['/api/staff-access/logout']?.post?.summary).toMatch(/^Anyone/);
  });
});
