import { describe, expect, it } from 'vitest';
import { gracefulShutdown } from '../../../src-server/platform/graceful-shutdown';
import { buildTestServer, type TestServer } from '../helpers/build-server';
import { useTestDatabase } from '../helpers/test-app';
import { get } from '../helpers/http-get';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('gracefulShutdown', () => {
  const database = useTestDatabase();
  let server: TestServer;
  let port = 0;

  async function listen(): Promise<void> {
    server = await buildTestServer({ db: database.db });
    server.app.get('/api/test/slow', { config: { access: 'public' } }, async () => {
      await sleep(400);
      return { finished: true };
    });
    server.app.get('/api/test/stuck', { config: { access: 'public' } }, () => new Promise(() => undefined));
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    const address = server.app.server.address();
    port = typeof address === 'object' && address !== null ? address.port : 0;
  }

  it('lets a request in flight finish, refuses new connections, then closes the resources', async () => {
    await listen();
    const inFlight = get(port, '/api/test/slow');
    await sleep(100);
    let closed = false;
    const done = gracefulShutdown(server.app, {
      timeoutMs: 5000,
      closeResources: async () => {
        closed = true;
      },
    });
    await sleep(50);
    // No new request is answered: refused, or (caught in the listen backlog as it closed) reset.
    await expect(get(port, '/api/health')).rejects.toThrow(/ECONNREFUSED|ECONNRESET/);
    expect(await inFlight).toEqual({ status: 200, body: '{"finished":true}' });
    expect(await done).toEqual({ timedOut: false });
    expect(closed).toBe(true);
  });

  it('closes a stuck request after the timeout instead of waiting for ever', async () => {
    await listen();
    const stuck = get(port, '/api/test/stuck').catch((error: unknown) => error);
    await sleep(100);
    const started = Date.now();
    const result = await gracefulShutdown(server.app, { timeoutMs: 300, closeResources: async () => undefined });
    expect(result).toEqual({ timedOut: true });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(String(await stuck)).toMatch(/socket hang up|ECONNRESET/);
  });
});
