import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { backends } from '../helpers/database';
import { useTestApp } from '../helpers/test-app';

// API compression (src-server/platform/compression.ts): public answers that opt in are sent with
// brotli or gzip when the browser accepts it; every other answer stays as it is (BREACH).

describe.each(backends())('API response compression, on %s', (backend) => {
  const server = useTestApp({ backend });

  it('sends the catalogue with brotli or gzip as the browser accepts, the same JSON inside', async () => {
    const plain = await server.app.inject({ method: 'GET', url: '/api/booking/catalogue' });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();

    const brotli = await server.app.inject({
      method: 'GET',
      url: '/api/booking/catalogue',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(String(brotli.headers.vary)).toMatch(/accept-encoding/i);
    expect(brotli.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    expect(JSON.parse(brotliDecompressSync(brotli.rawPayload).toString('utf8'))).toEqual(plain.json());

    const gzip = await server.app.inject({ method: 'GET', url: '/api/booking/catalogue', headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gzip.rawPayload).toString('utf8'))).toEqual(plain.json());
  });

  it('compresses the start-up configuration and the glossary, whose ETag still answers 304', async () => {
    const bootstrap = await server.app.inject({ method: 'GET', url: '/api/config/bootstrap', headers: { 'accept-encoding': 'br' } });
    expect(bootstrap.statusCode).toBe(200);
    expect(bootstrap.headers['content-encoding']).toBe('br');

    const glossary = await server.app.inject({ method: 'GET', url: '/api/results-glossary', headers: { 'accept-encoding': 'br' } });
    expect(glossary.headers['content-encoding']).toBe('br');
    const again = await server.app.inject({
      method: 'GET',
      url: '/api/results-glossary',
      headers: { 'accept-encoding': 'br', 'if-none-match': String(glossary.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
  });

  it('leaves an answer that did not opt in uncompressed, however large', async () => {
    const exams = await server.app.inject({ method: 'GET', url: '/api/booking/exams', headers: { 'accept-encoding': 'br, gzip' } });
    expect(exams.statusCode).toBe(200);
    expect(exams.rawPayload.length).toBeGreaterThan(1024);
    expect(exams.headers['content-encoding']).toBeUndefined();
  });
});
