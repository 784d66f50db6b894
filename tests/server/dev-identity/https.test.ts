import { X509Certificate } from 'node:crypto';
import { request } from 'node:https';
import { describe, expect, it } from 'vitest';
import { createRemoteJWKSet, customFetch, jwtVerify } from 'jose';
import { selfSignedCertificate } from '../../../src-server/dev-identity/self-signed';
import { fetchTrusting } from '../../../src-server/dev-identity/trusted-fetch';
import { authorizationRequest, CookieJar, exchangeCode, signIn } from './oidc-client';
import { PORTAL_SCOPE, useDevIdentityProvider } from './provider-fixture';

const PORTAL = 'http://localhost:3996';

/** A GET that trusts only the given certificate, as a browser would after accepting it. */
function httpsGet(url: string, ca: string): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { ca, agent: false }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.once('error', reject);
    req.end();
  });
}

const idp = useDevIdentityProvider({ portalUrl: PORTAL, tls: 'self-signed' });

describe('local identity provider over https (the authority MSAL accepts)', () => {
  it('makes a certificate for the loopback names, valid now', () => {
    const certificate = new X509Certificate(selfSignedCertificate().cert);
    expect(certificate.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(certificate.checkIP('::1')).toBe('::1');
    expect(certificate.checkHost('localhost')).toBe('localhost');
    expect(certificate.verify(certificate.publicKey)).toBe(true);
    expect(Date.parse(certificate.validFrom)).toBeLessThanOrEqual(Date.now());
    expect(Date.parse(certificate.validTo)).toBeGreaterThan(Date.now());
  });

  it.each([
    ['a leading zero byte', Buffer.from([0x00, 0x05, ...Buffer.alloc(14, 0x11)])],
    ['the high bit set', Buffer.from([0x80, ...Buffer.alloc(15, 0x22)])],
  ])('encodes a random serial with %s as a valid DER integer (a start once failed with "illegal padding")', (_case, serial) => {
    const certificate = new X509Certificate(selfSignedCertificate(['127.0.0.1'], 1, serial).cert);
    expect(BigInt(`0x${certificate.serialNumber}`)).toBe(BigInt(`0x${serial.toString('hex')}`));
  });

  it('serves an https issuer, discovery and JWKS that a client trusting its certificate reads', async () => {
    expect(idp.issuer).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const ca = idp.certificate ?? '';
    const discovery = await httpsGet(`${idp.issuer}/.well-known/openid-configuration`, ca);
    expect(discovery.status).toBe(200);
    expect(JSON.parse(discovery.body)).toMatchObject({ issuer: idp.issuer, jwks_uri: idp.jwksUri });
    const jwks = await httpsGet(idp.jwksUri, ca);
    expect(JSON.parse(jwks.body)).toMatchObject({ keys: [{ kid: idp.signingKid(), alg: 'RS256' }] });
  });

  it('refuses a client that does not trust the certificate', async () => {
    await expect(httpsGet(`${idp.issuer}/.well-known/openid-configuration`, selfSignedCertificate().cert)).rejects.toThrow();
  });

  it('sets its cookies Secure and SameSite=None, for the hidden-frame silent sign-in', async () => {
    const start = authorizationRequest(idp.issuer, idp.clientId, `${PORTAL}/auth/redirect`, 'openid profile');
    const response = await httpsGet(start.url, idp.certificate ?? '');
    expect(response.status).toBe(303);
    const cookies = (response.headers['set-cookie'] as string[] | undefined) ?? [];
    expect(cookies.length).toBeGreaterThan(0);
    for (const cookie of cookies) expect(cookie.toLowerCase()).toContain('; secure');
    // oidc-provider adds a `.legacy` twin without SameSite for browsers that mishandle None.
    const current = cookies.filter((cookie) => !/^[^=]+\.legacy(\.sig)?=/.test(cookie));
    expect(current.length).toBeGreaterThan(0);
    for (const cookie of current) expect(cookie.toLowerCase()).toContain('samesite=none');
  });

  it('runs the whole code flow over https, and jose reads the JWKS through fetchTrusting', async () => {
    const trusting = fetchTrusting(idp.certificate ?? '');
    const person = idp.accounts.find((candidate) => candidate.roles.includes('Portal.Referrer'));
    const jar = new CookieJar(trusting);
    const request = authorizationRequest(idp.issuer, idp.clientId, `${PORTAL}/referrer-access`, PORTAL_SCOPE);
    const result = await signIn(jar, request, person?.username ?? '', person?.password ?? '');
    const code = result.redirectedTo?.searchParams.get('code') ?? '';
    const tokens = await exchangeCode(idp.issuer, idp.clientId, request, code, PORTAL, trusting);
    expect(tokens.status).toBe(200);
    const jwks = createRemoteJWKSet(new URL(idp.jwksUri), { [customFetch]: trusting });
    const verified = await jwtVerify(String(tokens.body.access_token), jwks, {
      issuer: idp.issuer,
      audience: 'api://portal',
    });
    expect(verified.payload).toMatchObject({ roles: ['Portal.Referrer'], organization: 'Harbour Street Medical Centre' });
  });
});
