import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { ApiErrorBodySchema } from '@contract/errors';
import type { Database } from '../../../../src-server/db/connection';
import { isLoopbackAddress, isLoopbackHost } from '../../../../src-server/modules/notifications/dev-outbox-access';
import { buildTestServer, testConfig } from '../../helpers/build-server';
import { backends } from '../../helpers/database';
import { useTestApp, useTestDatabase } from '../../helpers/test-app';

/**
 * Who reaches the development outbox: only a direct request from this machine, and only where it
 * is on (asked for, or the demo provider with no real mail or SMS).
 */

const PATHS = ['/api/dev/outbox', '/dev/outbox', '/api/dev/outbox/1', '/dev/outbox/1/html'];

async function expectHidden(
  app: FastifyInstance,
  options: { remoteAddress?: string; headers?: Record<string, string> } = {},
): Promise<void> {
  for (const url of PATHS) {
    const response = await app.inject({ method: 'GET', url, ...options });
    expect(response.statusCode, url).toBe(404);
    expect(ApiErrorBodySchema.parse(response.json()), url).toEqual({ code: 'not_found', message: 'Not found.' });
  }
}

describe('isLoopbackAddress', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.8.9.10', true],
    ['::1', true],
    ['::ffff:127.0.0.1', true],
    ['::FFFF:127.0.0.2', true],
    ['10.0.0.1', false],
    ['203.0.113.7', false],
    ['::ffff:203.0.113.7', false],
    ['128.0.0.1', false],
    ['127.0.0.1.example.com', false],
    ['fe80::1', false],
    [undefined, false],
  ])('%s → %s', (address, expected) => {
    expect(isLoopbackAddress(address)).toBe(expected);
  });
});

describe('isLoopbackHost', () => {
  it.each([
    ['localhost', true],
    ['localhost:3000', true],
    ['LOCALHOST:80', true],
    ['127.0.0.1', true],
    ['127.0.0.1:8080', true],
    ['[::1]', true],
    ['[::1]:3000', true],
    ['evil.example', false],
    ['evil.example:3000', false],
    ['localhost.evil.example', false],
    ['127.0.0.1.nip.io', false],
    ['localhost:3000@evil.example', false],
    ['localhost:abc', false],
    ['127.0.0.2', false],
    ['::1', false],
    ['', false],
    [undefined, false],
  ])('%s → %s', (host, expected) => {
    expect(isLoopbackHost(host)).toBe(expected);
  });
});

describe.each(backends())('development outbox access on %s', (backend) => {
  describe('when asked for', () => {
    const server = useTestApp({ backend, env: { MAIL_DEV_OUTBOX_ENABLED: 'true', TRUST_PROXY: '203.0.113.0/24' } });

    it('should answer a direct request from this machine (IPv4, IPv6, IPv4-mapped)', async () => {
      for (const remoteAddress of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
        const response = await server.app.inject({ method: 'GET', url: '/api/dev/outbox', remoteAddress });
        expect(response.statusCode, remoteAddress).toBe(200);
      }
    });

    it.each(['203.0.113.7', '10.0.0.5', '::ffff:192.168.1.20', '2001:db8::1'])(
      'should answer 404 to a request from another machine (%s)',
      async (remoteAddress) => {
        await expectHidden(server.app, { remoteAddress });
      },
    );

    it.each([
      ['X-Forwarded-For', { 'x-forwarded-for': '127.0.0.1' }],
      ['Forwarded', { forwarded: 'for=127.0.0.1' }],
      ['X-Real-IP', { 'x-real-ip': '127.0.0.1' }],
    ])('should answer 404 to a loopback request that came through a proxy (%s)', async (_label, headers) => {
      await expectHidden(server.app, { remoteAddress: '127.0.0.1', headers });
    });

    it('should answer a loopback Host with any port', async () => {
      for (const host of ['localhost:3000', '127.0.0.1:8080', '[::1]:3000', '127.0.0.1']) {
        const response = await server.app.inject({ method: 'GET', url: '/dev/outbox', remoteAddress: '127.0.0.1', headers: { host } });
        expect(response.statusCode, host).toBe(200);
      }
    });

    it.each(['evil.example', 'evil.example:3000', 'localhost.evil.example', '127.0.0.1.nip.io:3000'])(
      'should answer 404 to a loopback request for another Host (%s: DNS rebinding)',
      async (host) => {
        await expectHidden(server.app, { remoteAddress: '127.0.0.1', headers: { host } });
      },
    );

    it('should go by the socket peer, not request.ip from a trusted proxy', async () => {
      // 203.0.113.9 is a trusted proxy here, so request.ip would be the loopback it names.
      await expectHidden(server.app, { remoteAddress: '203.0.113.9', headers: { 'x-forwarded-for': '127.0.0.1' } });
    });
  });

  describe('by default', () => {
    const demo = useTestDatabase({ backend });
    const other = useTestDatabase({ backend });
    const empty = useTestDatabase({ backend, state: 'migrated' });

    async function withServer(
      db: () => Database,
      env: Record<string, string>,
      check: (app: FastifyInstance) => Promise<void>,
    ): Promise<void> {
      const server = await buildTestServer({ db: db(), config: testConfig(env) });
      try {
        await check(server.app);
      } finally {
        await server.close();
      }
    }

    it('should be on, for this machine only, while the demo provider is served', async () => {
      await withServer(
        () => demo.db,
        {},
        async (app) => {
          expect((await app.inject({ method: 'GET', url: '/api/dev/outbox' })).statusCode).toBe(200);
          await expectHidden(app, { remoteAddress: '198.51.100.4' });
        },
      );
    });

    it.each([
      ['SMTP_HOST', { SMTP_HOST: 'smtp.example.com', SMTP_FROM: 'portal@example.com' }],
      ['SMS_PROVIDER_URL', { SMS_PROVIDER_URL: 'https://sms.example.com/send', SMS_PROVIDER_API_KEY: 'key' }],
    ])('should be off with %s set, even for the demo provider', async (_label, env) => {
      await withServer(
        () => demo.db,
        env,
        async (app) => expectHidden(app),
      );
    });

    it('should be off on a database whose provider is not the demo one', async () => {
      await other.db.query(`update provider set environment_config = jsonb_set(environment_config, '{profiles}', '[]'::jsonb)`);
      await withServer(
        () => other.db,
        {},
        async (app) => expectHidden(app),
      );
      await other.db.query(
        `update provider set environment_config = jsonb_set(environment_config, '{profiles}', '["demo"]'::jsonb) || '{"production": true}'::jsonb`,
      );
      await withServer(
        () => other.db,
        {},
        async (app) => expectHidden(app),
      );
    });

    it('should be off on a database with no provider yet', async () => {
      await withServer(
        () => empty.db,
        {},
        async (app) => expectHidden(app),
      );
    });
  });
});
