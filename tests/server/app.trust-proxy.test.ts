import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { useTestApp } from './helpers/test-app';

/**
 * TRUST_PROXY: request.ip (what the per-address sign-in and booking limits count) is the
 * X-Forwarded-For client only when the direct peer is a configured proxy.
 */

function addIpRoute(app: FastifyInstance): void {
  app.get('/api/test/ip', { config: { access: 'public' } }, async (request) => ({ ip: request.ip }));
}

async function ipSeen(app: FastifyInstance, remoteAddress: string, headers: Record<string, string> = {}): Promise<string> {
  const response = await app.inject({ method: 'GET', url: '/api/test/ip', remoteAddress, headers });
  expect(response.statusCode).toBe(200);
  return response.json<{ ip: string }>().ip;
}

describe('TRUST_PROXY=127.0.0.1', () => {
  const server = useTestApp({ env: { TRUST_PROXY: '127.0.0.1' }, setup: addIpRoute });

  it('should take the client from X-Forwarded-For when the proxy sent it', async () => {
    expect(await ipSeen(server.app, '127.0.0.1', { 'x-forwarded-for': '203.0.113.7' })).toBe('203.0.113.7');
    // A client-written entry before the proxy's own is not believed: only the hop the proxy added.
    expect(await ipSeen(server.app, '127.0.0.1', { 'x-forwarded-for': '10.9.9.9, 203.0.113.7' })).toBe('203.0.113.7');
  });

  it('should ignore X-Forwarded-For from a peer that is not a configured proxy', async () => {
    expect(await ipSeen(server.app, '198.51.100.4', { 'x-forwarded-for': '203.0.113.7' })).toBe('198.51.100.4');
  });
});

describe('TRUST_PROXY=10.0.0.0/8, loopback', () => {
  const server = useTestApp({ env: { TRUST_PROXY: '10.0.0.0/8, loopback' }, setup: addIpRoute });

  it('should trust every proxy in a listed range', async () => {
    expect(await ipSeen(server.app, '10.1.2.3', { 'x-forwarded-for': '203.0.113.8' })).toBe('203.0.113.8');
    expect(await ipSeen(server.app, '::1', { 'x-forwarded-for': '203.0.113.9' })).toBe('203.0.113.9');
    expect(await ipSeen(server.app, '11.1.2.3', { 'x-forwarded-for': '203.0.113.8' })).toBe('11.1.2.3');
  });
});

describe('TRUST_PROXY unset', () => {
  const server = useTestApp({ setup: addIpRoute });

  it('should use the socket address and ignore X-Forwarded-For, even from loopback', async () => {
    expect(await ipSeen(server.app, '127.0.0.1', { 'x-forwarded-for': '203.0.113.7' })).toBe('127.0.0.1');
  });
});
