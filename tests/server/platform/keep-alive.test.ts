import { Agent, request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { buildTestServer, type TestServer } from '../helpers/build-server';
import { useTestDatabase } from '../helpers/test-app';

// The check-in bench (tests/bench/check-in.bench.ts) sends its 1,050 look-ups in a row on one
// keep-alive connection, and clients drop an idle one by the timeout the server announces: the
// server must neither cap nor reset such a connection, and must announce its keep-alive timeout.
describe('keep-alive connections', () => {
  const database = useTestDatabase();
  let server: TestServer | undefined;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });

  afterEach(async () => {
    agent.destroy();
    await server?.app.close();
  });

  function get(port: number, path: string): Promise<{ status: number; keepAlive: string }> {
    return new Promise((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path, agent }, (response) => {
        response.resume();
        response.on('end', () => resolve({ status: response.statusCode ?? 0, keepAlive: String(response.headers['keep-alive']) }));
      });
      req.on('error', reject);
      req.end();
    });
  }

  it('answers 300 requests in a row on one connection and announces its keep-alive timeout', async () => {
    server = await buildTestServer({ db: database.db });
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    const address = server.app.server.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    let connections = 0;
    server.app.server.on('connection', () => (connections += 1));
    for (let index = 0; index < 300; index += 1) {
      const answer = await get(port, '/api/health');
      expect(answer).toEqual({ status: 200, keepAlive: `timeout=${server.app.server.keepAliveTimeout / 1000}` });
    }
    expect(connections).toBe(1);
  });
});
