import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { contentTypeFor, pickEncoding, safeRelativePath } from '../../../src-server/platform/web-app';
import { FIXTURE_ASSET, FIXTURE_ASSET_BODY } from '../helpers/build-server';
import { useTestApp } from '../helpers/test-app';

describe('safeRelativePath', () => {
  it.each([
    ['/assets/app.js', 'assets/app.js'],
    ['/robots.txt', 'robots.txt'],
    ['/a%20b.css', 'a b.css'],
    ['/', null],
    ['/../etc/passwd', null],
    ['/assets/../../etc/passwd', null],
    ['/%2e%2e/%2e%2e/etc/passwd', null],
    ['/assets/..%2f..%2fsecret', null],
    ['/assets/%00.js', null],
    ['/assets\\..\\x', null],
    ['/.env', null],
    ['/assets/.git/config', null],
    ['/%E0%A4%A', null],
  ])('%j → %j', (input, expected) => {
    expect(safeRelativePath(input)).toBe(expected);
  });
});

describe('contentTypeFor', () => {
  it('names scripts, styles, fonts and images with charset where it is text', () => {
    expect(contentTypeFor('a/b.js')).toBe('text/javascript; charset=utf-8');
    expect(contentTypeFor('b.CSS')).toBe('text/css; charset=utf-8');
    expect(contentTypeFor('c.woff2')).toBe('font/woff2');
    expect(contentTypeFor('d.svg')).toBe('image/svg+xml');
    expect(contentTypeFor('e.unknown')).toBe('application/octet-stream');
  });
});

describe('pickEncoding', () => {
  it.each([
    [undefined, null],
    ['', null],
    ['gzip, deflate, br', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0, gzip;q=0.5', 'gzip'],
    ['identity', null],
    ['*', 'br'],
    ['gzip;q=0', null],
  ])('Accept-Encoding %j → %j', (header, expected) => {
    expect(pickEncoding(header)).toBe(expected);
  });
});

const BIG_ASSET = 'assets/vendor-Zz99Yy88.js';
const BIG_BODY = `/* vendor */\n${'export const value = "portal";\n'.repeat(800)}`;

describe('serving the built web app', () => {
  const server = useTestApp({
    webRoot: (dir) => {
      mkdirSync(join(dir, 'assets', 'fonts'));
      writeFileSync(join(dir, 'assets', 'fonts', 'inter.woff2'), Buffer.from([0x77, 0x4f, 0x46, 0x32]));
      writeFileSync(join(dir, '..', 'outside-secret.txt'), 'secret');
      symlinkSync(join(dir, '..', 'outside-secret.txt'), join(dir, 'assets', 'link.txt'));
      writeFileSync(join(dir, BIG_ASSET), BIG_BODY);
    },
  });

  it('serves a hashed asset with its type, length and a year-long immutable cache', async () => {
    const response = await server.app.inject({ method: 'GET', url: `/${FIXTURE_ASSET}` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(response.headers['content-length']).toBe(String(Buffer.byteLength(FIXTURE_ASSET_BODY)));
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.body).toBe(FIXTURE_ASSET_BODY);
    const font = await server.app.inject({ method: 'GET', url: '/assets/fonts/inter.woff2' });
    expect(font.headers['content-type']).toBe('font/woff2');
  });

  it('compresses text assets with brotli or gzip as the browser accepts, and caches them immutably', async () => {
    for (const [accept, encoding, decode] of [
      ['gzip, deflate, br', 'br', brotliDecompressSync],
      ['gzip', 'gzip', gunzipSync],
    ] as const) {
      const response = await server.app.inject({ method: 'GET', url: `/${BIG_ASSET}`, headers: { 'accept-encoding': accept } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBe(encoding);
      expect(response.headers.vary).toBe('accept-encoding');
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(Number(response.headers['content-length'])).toBe(response.rawPayload.length);
      expect(response.rawPayload.length).toBeLessThan(BIG_BODY.length / 10);
      expect(decode(response.rawPayload).toString()).toBe(BIG_BODY);
    }
    const plain = await server.app.inject({ method: 'GET', url: `/${BIG_ASSET}` });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(BIG_BODY);
    // Small files and already-compressed formats are sent as they are.
    const small = await server.app.inject({ method: 'GET', url: `/${FIXTURE_ASSET}`, headers: { 'accept-encoding': 'br' } });
    expect(small.headers['content-encoding']).toBeUndefined();
  });

  it('compresses the injected page per request', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/about', headers: { accept: 'text/html', 'accept-encoding': 'gzip' } });
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(response.rawPayload).toString()).toContain('<script id="portal-config"');
  });

  it('serves other files of the build revalidated, not immutable', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/robots.txt' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-cache');
  });

  it('answers HEAD for an asset without a body', async () => {
    const response = await server.app.inject({ method: 'HEAD', url: `/${FIXTURE_ASSET}` });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('');
  });

  it('never serves a file outside the web root (traversal, encoded traversal, symlinks)', async () => {
    for (const url of [
      '/../outside-secret.txt',
      '/assets/%2e%2e/%2e%2e/outside-secret.txt',
      '/assets/..%2f..%2foutside-secret.txt',
      '/assets/link.txt',
      '/%2e%2e/%2e%2e/%2e%2e/etc/passwd',
    ]) {
      const response = await server.app.inject({ method: 'GET', url, headers: { accept: 'image/png' } });
      expect(response.body, url).not.toContain('secret');
      expect(response.body, url).not.toContain('root:');
      expect(response.statusCode, url).toBe(404);
    }
  });

  it('answers 404 (not the page) for a missing asset or a non-HTML request', async () => {
    const asset = await server.app.inject({ method: 'GET', url: '/assets/missing-123.js', headers: { accept: 'text/html' } });
    expect(asset.statusCode).toBe(404);
    expect(asset.headers['content-type']).toBe('text/plain; charset=utf-8');
    const image = await server.app.inject({ method: 'GET', url: '/favicon.ico', headers: { accept: 'image/avif,image/webp,*/*;q=0.8' } });
    expect(image.statusCode).toBe(404);
  });

  it.each(['/', '/about', '/iframe/select-region', '/appointments/abc/kiosk?kioskMode=true', '/no/such/page', '/index.html'])(
    'answers %s with the injected index.html so the client router decides',
    async (url) => {
      const response = await server.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.body).toContain('<script id="portal-config"');
    },
  );

  it('answers curl-style Accept: */* with the page too', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/contact', headers: { accept: '*/*' } });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<title>');
  });

  it('picks up a rebuilt index.html without a restart', async () => {
    const path = join(server.webRoot, 'index.html');
    writeFileSync(
      path,
      '<!doctype html><html><head><!--portal-head--><title>x</title><!--/portal-head--></head><body>rebuilt</body></html>',
    );
    const later = new Date(Date.now() + 5000);
    const { utimesSync } = await import('node:fs');
    utimesSync(path, later, later);
    const response = await server.app.inject({ method: 'GET', url: '/', headers: { accept: 'text/html' } });
    expect(response.body).toContain('rebuilt');
  });
});

const SOURCE_MAP = `${FIXTURE_ASSET}.map`;
const SOURCE_MAP_BODY = '{"version":3,"sources":["../../src-web/secret-source.tsx"],"mappings":""}';

function addSourceMaps(dir: string): void {
  writeFileSync(join(dir, SOURCE_MAP), SOURCE_MAP_BODY);
  writeFileSync(join(dir, 'top-level.js.map'), SOURCE_MAP_BODY);
}

describe('source maps by default (SOURCE_MAPS unset)', () => {
  const server = useTestApp({ webRoot: addSourceMaps });

  it.each([`/${SOURCE_MAP}`, '/top-level.js.map', '/top-level.js.map?v=1', '/top-level.js.MAP'])(
    'answers %s with 404 like a missing file, for any Accept',
    async (url) => {
      for (const accept of ['*/*', 'text/html', 'application/json']) {
        const response = await server.app.inject({ method: 'GET', url, headers: { accept } });
        expect(response.statusCode, accept).toBe(404);
        expect(response.headers['content-type'], accept).toBe('text/plain; charset=utf-8');
        expect(response.body, accept).not.toContain('secret-source');
      }
    },
  );

  it('still serves the script the map belongs to', async () => {
    expect((await server.app.inject({ method: 'GET', url: `/${FIXTURE_ASSET}` })).statusCode).toBe(200);
  });
});

describe('source maps with SOURCE_MAPS=public', () => {
  const server = useTestApp({ webRoot: addSourceMaps, env: { SOURCE_MAPS: 'public' } });

  it.each([`/${SOURCE_MAP}`, '/top-level.js.map'])('serves %s as JSON', async (url) => {
    const response = await server.app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.body).toBe(SOURCE_MAP_BODY);
  });
});
