import { describe, expect, it } from 'vitest';
import { useMountedStaffIdentity } from '../helpers/mounted-identity';
import { useTestApp } from '../helpers/test-app';

// The default of `npm start`: the demo identity provider inside the portal (/dev/idp) has a RIS
// client whose client credentials tokens the portal's FHIR API accepts, for the FHIR audience only.

const RIS_SECRET = 'demo-ris-secret-for-this-test-0123456789';

describe('the demo RIS client of the demo identity provider inside the portal', () => {
  const mounted = useMountedStaffIdentity({ host: '127.0.0.1', env: { DEV_IDENTITY_RIS_CLIENT_SECRET: RIS_SECRET } });
  const app = useTestApp({
    clock: new Date().toISOString(),
    env: () => ({ PUBLIC_URL: mounted.portal }),
    identity: () => mounted.staffIdentity.identity,
  });

  async function tokenRequest(client: string, secret: string, fields: Record<string, string>) {
    const response = await fetch(`${mounted.portal}/dev/idp/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${client}:${secret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ grant_type: 'client_credentials', ...fields }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  it('prints the RIS client and its secret in the start banner', () => {
    const banner = mounted.staffIdentity.banner.join('\n');
    expect(banner).toContain('client id demo-ris');
    expect(banner).toContain(RIS_SECRET);
    expect(banner).toContain(`${mounted.portal}/fhir/R4`);
  });

  it('gives a token for PUBLIC_URL/fhir/R4 that the FHIR API accepts, with the scopes asked for', async () => {
    const granted = await tokenRequest('demo-ris', RIS_SECRET, { resource: `${mounted.portal}/fhir/R4`, scope: 'system/Location.rs' });
    expect(granted.status, JSON.stringify(granted.body)).toBe(200);
    expect(granted.body.scope).toBe('system/Location.rs');
    const authorization = `Bearer ${String(granted.body.access_token)}`;
    expect((await app.app.inject({ method: 'GET', url: '/fhir/R4/Location?_count=1', headers: { authorization } })).statusCode).toBe(200);
    expect((await app.app.inject({ method: 'GET', url: '/fhir/R4/Slot?schedule=x', headers: { authorization } })).statusCode).toBe(403);
    // Without a resource the RIS client's tokens are for the FHIR API too.
    const byDefault = await tokenRequest('demo-ris', RIS_SECRET, { scope: 'system/*.rs' });
    expect(byDefault.status, JSON.stringify(byDefault.body)).toBe(200);
  });

  it('refuses a wrong secret, another resource, and the portal’s browser client', async () => {
    expect((await tokenRequest('demo-ris', 'wrong', { scope: 'system/*.rs' })).status).toBe(401);
    expect((await tokenRequest('demo-ris', RIS_SECRET, { resource: 'api://portal', scope: 'system/*.rs' })).body.error).toBe(
      'invalid_target',
    );
    expect((await tokenRequest('portal-web', '', { resource: `${mounted.portal}/fhir/R4` })).status).not.toBe(200);
  });
});
