import { describe, expect, it } from 'vitest';
import { createTestClock } from '../../../../src-server/platform/clock';
import { createTokenVerifier } from '../../../../src-server/modules/staff-access/token-verifier';
import { STAFF_CLAIMS, useTestIdentityProvider } from './identity-kit';

// A token must have been issued to the portal's own client (docs/rules/staff-access.md#token-verification):
// another application of the tenant allowed to call the portal's API gets tokens with the same
// issuer and audience, and must not open a staff session with them.

describe('the client a token was issued to', () => {
  const provider = useTestIdentityProvider();
  const now = new Date('2026-11-23T10:00:00Z');

  const verifier = () => createTokenVerifier({ ...provider.options, authorizedParties: ['portal-web'] }, createTestClock(now));

  it.each([
    ['azp (Entra v2, OpenID Connect)', { azp: 'portal-web' }],
    ['appid (Entra v1)', { appid: 'portal-web' }],
    ['client_id (RFC 9068)', { client_id: 'portal-web' }],
  ])('accepts the portal named in %s', async (_name, claim) => {
    const result = await verifier().verify(await provider.sign({ ...STAFF_CLAIMS, ...claim }, now));
    expect(result).toMatchObject({ ok: true, subject: STAFF_CLAIMS.oid });
  });

  it.each([
    ['another client', { azp: 'reporting-tool' }],
    ['another client under appid', { appid: 'reporting-tool' }],
    ['no client at all', {}],
    ['an empty azp beside another appid', { azp: '', appid: 'reporting-tool' }],
  ])('refuses a token issued to %s', async (_name, claim) => {
    const result = await verifier().verify(await provider.sign({ ...STAFF_CLAIMS, ...claim }, now));
    expect(result).toEqual({ ok: false, reason: 'wrong_client' });
  });

  it('does not look when no client is configured', async () => {
    const result = await createTokenVerifier(provider.options, createTestClock(now)).verify(await provider.sign(STAFF_CLAIMS, now));
    expect(result.ok).toBe(true);
  });
});
