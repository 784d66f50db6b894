import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { buildContentSecurityPolicy } from '../../../../src-server/platform/plugins/security-headers';
import { backends } from '../../helpers/database';
import { FIXTURE_ASSET } from '../../helpers/build-server';
import { useTestApp } from '../../helpers/test-app';

/** The CSP as a map of directive → sources. */
function parseCsp(header: string | string[] | number | undefined): Map<string, string[]> {
  const directives = new Map<string, string[]>();
  for (const part of String(header ?? '').split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) directives.set(name, sources);
  }
  return directives;
}

function expectBaseline(response: LightMyRequestResponse, label: string): Map<string, string[]> {
  const headers = response.headers;
  expect(headers['strict-transport-security'], label).toBe('max-age=31536000; includeSubDomains');
  expect(headers['x-content-type-options'], label).toBe('nosniff');
  expect(headers['referrer-policy'], label).toBe('no-referrer');
  expect(headers['cross-origin-opener-policy'], label).toBe('same-origin');
  expect(headers['x-frame-options'], label).toBeUndefined();
  expect(headers['access-control-allow-origin'], label).toBeUndefined();
  const csp = parseCsp(headers['content-security-policy']);
  expect(csp.get('default-src'), label).toEqual(["'self'"]);
  expect(csp.get('script-src'), label).toEqual(["'self'"]);
  expect(csp.get('object-src'), label).toEqual(["'none'"]);
  expect(csp.get('base-uri'), label).toEqual(["'none'"]);
  expect(csp.get('form-action'), label).toEqual(["'self'"]);
  // The demo provider's map tiles (docs/rules/booking.md#the-clinic-list-and-map).
  expect(csp.get('img-src'), label).toEqual(["'self'", 'data:', 'https://tile.openstreetmap.org']);
  expect(String(headers['content-security-policy']), label).not.toMatch(/unsafe-inline|unsafe-eval/);
  return csp;
}

describe.each(backends())('security headers on every response on %s', (backend) => {
  const server = useTestApp({
    backend,
    webRoot: true,
    env: { EMBED_ORIGINS: 'https://partner.example, http://127.0.0.1:4400' },
    setup: (app) => {
      app.get('/api/test/boom', { config: { access: 'public' } }, async () => {
        throw new Error('boom');
      });
    },
  });
  const { clock } = server;

  const REQUESTS: [string, string, Record<string, string>][] = [
    ['HTML page', '/about', { accept: 'text/html' }],
    ['embedded page', '/iframe/select-region', { accept: 'text/html' }],
    ['API answer', '/api/config/app', {}],
    ['API 404', '/api/does-not-exist', {}],
    ['API 400', '/api/assets/translations', {}],
    ['API 500', '/api/test/boom', {}],
    ['hashed asset', `/${FIXTURE_ASSET}`, {}],
    ['missing asset 404', '/assets/missing.js', {}],
    ['application image', '/api/assets/application/header', {}],
    ['health', '/api/health', {}],
    ['API docs', '/api/docs', {}],
  ];

  it.each(REQUESTS)('sets HSTS, nosniff, referrer policy, COOP and a strict CSP on the %s', async (label, url, headers) => {
    // A cross-site Origin (and the opaque 'null' one) gets no CORS grant: the API is same-origin only.
    const response = await server.app.inject({ method: 'GET', url, headers: { ...headers, origin: 'https://evil.example' } });
    const csp = expectBaseline(response, label);
    const opaque = await server.app.inject({ method: 'GET', url, headers: { ...headers, origin: 'null' } });
    expect(opaque.headers['access-control-allow-origin'], label).toBeUndefined();
    // Only the provider's own sites may frame the portal: the database's origins plus EMBED_ORIGINS;
    // pages no provider embeds (the API docs here) only the portal itself (security-headers.framing.test.ts).
    const providerSites = [
      'https://www.harbourrange.example',
      'https://harbourrange.example',
      'https://partner.example',
      'http://127.0.0.1:4400',
    ];
    expect(csp.get('frame-ancestors'), label).toEqual(url === '/api/docs' ? ["'self'"] : ["'self'", ...providerSites]);
    expect(csp.get('connect-src'), label).toEqual(["'self'"]);
  });

  it('never lets API answers be cached, lets hashed assets and images be cached', async () => {
    const api = await server.app.inject({ method: 'GET', url: '/api/config/app' });
    expect(api.headers['cache-control']).toBe('no-store');
    const error = await server.app.inject({ method: 'GET', url: '/api/does-not-exist' });
    expect(error.headers['cache-control']).toBe('no-store');
    const asset = await server.app.inject({ method: 'GET', url: `/${FIXTURE_ASSET}` });
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const image = await server.app.inject({ method: 'GET', url: '/api/assets/application/logo' });
    expect(image.headers['cache-control']).toBe('public, max-age=3600');
    const page = await server.app.inject({ method: 'GET', url: '/', headers: { accept: 'text/html' } });
    expect(page.headers['cache-control']).toBe('no-store');
  });

  it('allows nonce-styles on HTML only, with a fresh nonce per response', async () => {
    const first = await server.app.inject({ method: 'GET', url: '/', headers: { accept: 'text/html' } });
    const second = await server.app.inject({ method: 'GET', url: '/', headers: { accept: 'text/html' } });
    const styleFirst = parseCsp(first.headers['content-security-policy']).get('style-src') ?? [];
    const styleSecond = parseCsp(second.headers['content-security-policy']).get('style-src') ?? [];
    expect(styleFirst[0]).toBe("'self'");
    expect(styleFirst[1]).toMatch(/^'nonce-[A-Za-z0-9+/=]{20,}'$/);
    expect(styleFirst[1]).not.toBe(styleSecond[1]);
    const api = await server.app.inject({ method: 'GET', url: '/api/config/app' });
    expect(parseCsp(api.headers['content-security-policy']).get('style-src')).toEqual(["'self'"]);
  });

  it('follows configuration changes after the cache lifetime, and adds the error-reporting origin to connect-src', async () => {
    await server.db.query(
      `update provider set embedding_origins = array['https://new-site.example'],
         integration_config = integration_config || '{"errorReportingDsn": "https://key@o42.ingest.sentry.example/7"}'::jsonb`,
    );
    clock.advance(31_000);
    const response = await server.app.inject({ method: 'GET', url: '/api/health' });
    const csp = parseCsp(response.headers['content-security-policy']);
    expect(csp.get('frame-ancestors')).toEqual(["'self'", 'https://new-site.example', 'https://partner.example', 'http://127.0.0.1:4400']);
    expect(csp.get('connect-src')).toEqual(["'self'", 'https://o42.ingest.sentry.example']);
  });
});

describe('buildContentSecurityPolicy', () => {
  it("is 'self' only when nothing is configured", () => {
    expect(buildContentSecurityPolicy({ frameAncestors: [], connectSources: [] }, null)).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self' data:; " +
        "connect-src 'self'; frame-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'self'",
    );
  });

  it('lets the page reach and frame the identity provider when one is configured', () => {
    const csp = buildContentSecurityPolicy(
      { frameAncestors: [], connectSources: ['https://login.example'], frameSources: ['https://login.example'] },
      null,
    );
    expect(csp).toContain("connect-src 'self' https://login.example;");
    expect(csp).toContain("frame-src 'self' https://login.example;");
    expect(csp).toContain("form-action 'self';");
  });
});
