import { describe, expect, it } from 'vitest';
import { EMBED_SCRIPT_CACHE_CONTROL } from '../../../../src-server/modules/embed/routes';
import { backends } from '../../helpers/database';
import { cspDirective } from '../../helpers/csp';
import { useTestApp } from '../../helpers/test-app';

// Embedding for providers (docs/embedding.md): the script tag's file, and the question the framed
// portal asks before it posts its height to the page around it.

const PORTAL = 'https://portal.harbourrange.example';

describe.each(backends())('embedding on %s', (backend) => {
  const server = useTestApp({ backend, webRoot: true, env: { EMBED_ORIGINS: 'https://partner.example', PUBLIC_URL: PORTAL } });

  describe('GET /embed.js', () => {
    it('is a small plain script, cached for an hour and then revalidated', async () => {
      const response = await server.app.inject({ method: 'GET', url: '/embed.js' });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect(response.headers['cache-control']).toBe(EMBED_SCRIPT_CACHE_CONTROL);
      expect(response.headers['cache-control']).toMatch(/^public, max-age=3600\b/);
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      // A provider's page on another origin loads it.
      expect(response.headers['cross-origin-resource-policy']).toBe('cross-origin');
      expect(response.headers['set-cookie']).toBeUndefined();
      expect(response.body).toContain("'radiology-portal:height'");
      expect(response.body).toContain('event.origin !== embed.origin');
      expect(response.rawPayload.length).toBeLessThan(8 * 1024);
      // ES2017 and no modules: no optional chaining, no import/export.
      expect(response.body).not.toMatch(/\?\.|^\s*(import|export)\s/m);
    });

    it('answers 304 to a revalidation with its ETag, and the script again for another', async () => {
      const first = await server.app.inject({ method: 'GET', url: '/embed.js' });
      const etag = String(first.headers.etag);
      expect(etag).toMatch(/^"[\w-]+"$/);
      const again = await server.app.inject({ method: 'GET', url: '/embed.js', headers: { 'if-none-match': etag } });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
      const other = await server.app.inject({ method: 'GET', url: '/embed.js', headers: { 'if-none-match': '"old"' } });
      expect(other.statusCode).toBe(200);
      expect(other.body).toBe(first.body);
    });
  });

  describe('GET /api/embed/parent-origin', () => {
    it.each([
      ['https://partner.example', true, 'EMBED_ORIGINS'],
      ['https://www.harbourrange.example', true, "the provider's embedding origins in the database"],
      [PORTAL, true, 'the portal itself (/iframe-test)'],
      ['https://evil.example', false, 'anyone else'],
      ['http://partner.example', false, 'another scheme'],
      ['https://partner.example:8443', false, 'another port'],
    ])('%s → allowed %s (%s)', async (origin, allowed) => {
      const response = await server.app.inject({ method: 'GET', url: `/api/embed/parent-origin?origin=${encodeURIComponent(origin)}` });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ allowed });
      expect(response.headers['cache-control']).toBe('no-store');
    });

    it.each([
      '',
      '?origin=',
      '?origin=nope',
      '?origin=https://partner.example/',
      '?origin=https://partner.example/path',
      '?origin=javascript:alert(1)',
    ])('refuses %s with a 400 and a code', async (query) => {
      const response = await server.app.inject({ method: 'GET', url: `/api/embed/parent-origin${query}` });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: expect.stringMatching(/^[a-z_]+$/) });
    });
  });

  describe('framing rules', () => {
    const PROVIDER_ORIGINS = ["'self'", 'https://www.harbourrange.example', 'https://harbourrange.example', 'https://partner.example'];

    it('lets the provider sites frame the embedded start page the script opens', async () => {
      const url = `/iframe/select-region?parentOrigin=${encodeURIComponent('https://partner.example')}`;
      const response = await server.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect(response.statusCode).toBe(200);
      expect(cspDirective(response, 'frame-ancestors')).toEqual(PROVIDER_ORIGINS);
    });

    it('never widens frame-ancestors to the origin a frame claims', async () => {
      const url = `/iframe/select-region?parentOrigin=${encodeURIComponent('https://evil.example')}`;
      const response = await server.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect(cspDirective(response, 'frame-ancestors')).toEqual(PROVIDER_ORIGINS);
      expect(response.headers['x-frame-options']).toBeUndefined();
    });

    it('keeps the test page (/iframe-test) framed by the portal alone', async () => {
      const response = await server.app.inject({ method: 'GET', url: '/iframe-test', headers: { accept: 'text/html' } });
      expect(cspDirective(response, 'frame-ancestors')).toEqual(["'self'"]);
    });
  });
});
