import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { KioskHeartbeatSchema } from '@contract/api/kiosks';
import { buildHeartbeat, HEARTBEAT_MS, installHeartbeat, type HeartbeatSources } from '../../src-main/heartbeat';
import { fakeCredential } from './helpers/fake-credential';
import { FakeTimers, MemoryLog } from './helpers/fake-electron';

const TOKEN = 'tok-0123456789abcdefghij';
let server: Server;
let portalUrl: string;
let received: { method?: string; url?: string; headers: IncomingHttpHeaders; body: unknown }[];
let answer: { status: number; body?: unknown };

beforeEach(async () => {
  received = [];
  answer = { status: 204 };
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      received.push({ method: request.method, url: request.url, headers: request.headers, body: JSON.parse(body || 'null') });
      if (answer.body === undefined) response.writeHead(answer.status).end();
      else response.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  portalUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function setUp(sources: Partial<HeartbeatSources> = {}) {
  const timers = new FakeTimers();
  const log = new MemoryLog();
  const { state, credential } = fakeCredential(TOKEN);
  const heartbeat = installHeartbeat({
    fetch: (url, init) => fetch(url, init),
    portalUrl,
    credential,
    sources: {
      appVersion: '1.2.3',
      startedAt: timers.now() - 3_600_500,
      lastCrash: () => null,
      lastPatientActivityAt: () => null,
      lastOfflineAt: () => null,
      ...sources,
    },
    timers,
    log,
  });
  return { timers, log, state, heartbeat };
}

describe('installHeartbeat', () => {
  it('should POST the heartbeat body with the kiosk token to /api/kiosk/heartbeat', async () => {
    const now = new FakeTimers().now();
    const { heartbeat } = setUp({
      lastCrash: () => ({ at: now - 60_000, reason: 'renderer gone: oom' }),
      lastPatientActivityAt: () => now - 5_000,
      lastOfflineAt: () => now - 120_000,
    });
    await expect(heartbeat.beat()).resolves.toBe('sent');
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ method: 'POST', url: '/api/kiosk/heartbeat' });
    expect(received[0]?.headers.authorization).toBe(`Kiosk ${TOKEN}`);
    expect(received[0]?.headers['content-type']).toBe('application/json');
    expect(received[0]?.body).toEqual({
      appVersion: '1.2.3',
      uptimeSeconds: 3600,
      lastCrash: { at: new Date(now - 60_000).toISOString(), reason: 'renderer gone: oom' },
      lastPatientActivityAt: new Date(now - 5_000).toISOString(),
      lastOfflineAt: new Date(now - 120_000).toISOString(),
    });
    expect(KioskHeartbeatSchema.safeParse(received[0]?.body).success).toBe(true);
  });

  it('should beat every HEARTBEAT_SECONDS on the injected clock', async () => {
    const { timers } = setUp();
    expect(timers.pendingDelays()).toEqual([HEARTBEAT_MS]);
    timers.advance(HEARTBEAT_MS);
    // The beat is a real HTTP round trip: on a loaded machine it takes what it takes.
    await vi.waitFor(() => expect(received).toHaveLength(1), { timeout: 10_000 });
    await vi.waitFor(() => expect(timers.pendingDelays()).toEqual([HEARTBEAT_MS]), { timeout: 10_000 });
  });

  it('should send nothing without a token', async () => {
    const { heartbeat, state } = setUp();
    state.token = null;
    await expect(heartbeat.beat()).resolves.toBe('skipped');
    expect(received).toEqual([]);
  });

  it('should treat 401 kiosk_not_enrolled as revocation', async () => {
    answer = { status: 401, body: { code: 'kiosk_not_enrolled', message: 'This kiosk needs to be enrolled again.' } };
    const { heartbeat, state } = setUp();
    await expect(heartbeat.beat()).resolves.toBe('not-enrolled');
    expect(state.revokedCalls).toBe(1);
  });

  it('should log a failing portal once per kind of failure and never throw', async () => {
    answer = { status: 503 };
    const { heartbeat, log, state } = setUp();
    await expect(heartbeat.beat()).resolves.toBe('failed');
    await expect(heartbeat.beat()).resolves.toBe('failed');
    expect(log.lines).toEqual([{ level: 'warn', message: '[heartbeat] not delivered: status 503' }]);
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await expect(heartbeat.beat()).resolves.toBe('failed');
    expect(log.lines).toHaveLength(2);
    expect(state.revokedCalls).toBe(0);
    server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });

  it('should stop beating when stopped', () => {
    const { timers, heartbeat } = setUp();
    heartbeat.stop();
    expect(timers.pendingDelays()).toEqual([]);
  });
});

describe('buildHeartbeat', () => {
  it('keeps to the contract limits', () => {
    const body = buildHeartbeat(
      {
        appVersion: 'v'.repeat(60),
        startedAt: 10_000,
        lastCrash: () => ({ at: 0, reason: 'x'.repeat(300) }),
        lastPatientActivityAt: () => null,
        lastOfflineAt: () => null,
      },
      5_000,
    );
    expect(body.appVersion).toHaveLength(40);
    expect(body.uptimeSeconds).toBe(0);
    expect(body.lastCrash?.reason).toHaveLength(200);
  });
});
