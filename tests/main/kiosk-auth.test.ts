import { describe, expect, it } from 'vitest';
import { installKioskAuth, isKioskApiRequest } from '../../src-main/kiosk-auth';
import { fakeCredential } from './helpers/fake-credential';
import { FakeSession, MemoryLog } from './helpers/fake-electron';

const PORTAL = 'https://portal.example.com';
const TOKEN = 'tok-0123456789abcdefghij';

function setUp(probe: () => Promise<Response> = () => Promise.resolve(new Response(null, { status: 200 })), portalUrl = PORTAL) {
  const session = new FakeSession();
  const { state: held, credential } = fakeCredential(TOKEN);
  const state = Object.assign(held, { probes: [] as { url: string; headers: Record<string, string> }[] });
  installKioskAuth({
    session,
    portalUrl,
    credential,
    fetch: (url, init) => {
      state.probes.push({ url, headers: init.headers });
      return probe();
    },
    log: new MemoryLog(),
  });
  return { session, state };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 10));
const notEnrolled = () =>
  Promise.resolve(Response.json({ code: 'kiosk_not_enrolled', message: 'This kiosk needs to be enrolled again.' }, { status: 401 }));

describe('installKioskAuth: the token header', () => {
  it.each([
    `${PORTAL}/api/kiosk/check-in/identity`,
    `${PORTAL}/api/kiosk/me`,
    `${PORTAL}:443/api/kiosk/heartbeat?x=1`,
    `${PORTAL}/api/kiosk/../kiosk/me`,
  ])('should add Authorization: Kiosk to %s', (url) => {
    const { session } = setUp();
    expect(session.webRequest.send(url, { Accept: 'application/json' })).toEqual({
      Accept: 'application/json',
      Authorization: `Kiosk ${TOKEN}`,
    });
  });

  it.each([
    ['another origin', 'https://evil.com/api/kiosk/me'],
    ['a look-alike host', 'https://portal.example.com.evil.com/api/kiosk/me'],
    ['plain http on the portal host', 'http://portal.example.com/api/kiosk/me'],
    ['another port', 'https://portal.example.com:8443/api/kiosk/me'],
    ['credentials in the URL', 'https://user:pw@portal.example.com/api/kiosk/me'],
    ['a non-kiosk API path', `${PORTAL}/api/staff/kiosks`],
    ['a path that only starts like it', `${PORTAL}/api/kioskx/me`],
    ['the kiosk page itself', `${PORTAL}/kiosk?kioskMode=true`],
    ['a dot-dot that leaves the kiosk routes', `${PORTAL}/api/kiosk/../staff/kiosks`],
    ['an encoded slash', `${PORTAL}/api/kiosk/..%2Fstaff`],
    ['a websocket', 'wss://portal.example.com/api/kiosk/me'],
  ])('should not add the token to %s', (_name, url) => {
    const { session } = setUp();
    expect(session.webRequest.send(url, { Accept: 'application/json' })).toEqual({ Accept: 'application/json' });
  });

  it('should replace an Authorization header the page set on a kiosk route', () => {
    const { session } = setUp();
    expect(session.webRequest.send(`${PORTAL}/api/kiosk/me`, { authorization: 'Kiosk forged' })).toEqual({
      Authorization: `Kiosk ${TOKEN}`,
    });
  });

  it('should send nothing extra while the kiosk has no token', () => {
    const { session, state } = setUp();
    state.token = null;
    expect(session.webRequest.send(`${PORTAL}/api/kiosk/me`, {})).toEqual({});
  });

  it('should honour a portal path prefix', () => {
    expect(isKioskApiRequest('https://example.com/portal/api/kiosk/me', 'https://example.com/portal')).toBe(true);
    expect(isKioskApiRequest('https://example.com/api/kiosk/me', 'https://example.com/portal')).toBe(false);
  });
});

describe('installKioskAuth: a refused token', () => {
  it('should confirm a 401 on a kiosk route with GET /api/kiosk/me and revoke on kiosk_not_enrolled', async () => {
    const { session, state } = setUp(notEnrolled);
    session.webRequest.complete(`${PORTAL}/api/kiosk/check-in/identity`, 401);
    await settle();
    expect(state.probes).toEqual([
      { url: `${PORTAL}/api/kiosk/me`, headers: { authorization: `Kiosk ${TOKEN}`, accept: 'application/json' } },
    ]);
    expect(state.revokedCalls).toBe(1);
  });

  it('should keep the token when the check says it still works (a 401 for a missing patient session)', async () => {
    const { session, state } = setUp();
    session.webRequest.complete(`${PORTAL}/api/kiosk/check-in/K/A`, 401);
    await settle();
    expect(state.probes).toHaveLength(1);
    expect(state.revokedCalls).toBe(0);
  });

  it('should keep the token for another 401 code or an unreachable portal', async () => {
    const other = setUp(() => Promise.resolve(Response.json({ code: 'unauthorized', message: 'x' }, { status: 401 })));
    other.session.webRequest.complete(`${PORTAL}/api/kiosk/me`, 401);
    const down = setUp(() => Promise.reject(new Error('ECONNREFUSED')));
    down.session.webRequest.complete(`${PORTAL}/api/kiosk/me`, 401);
    await settle();
    expect(other.state.revokedCalls + down.state.revokedCalls).toBe(0);
  });

  it('should ignore 401s elsewhere and other statuses on kiosk routes', async () => {
    const { session, state } = setUp(notEnrolled);
    session.webRequest.complete(`${PORTAL}/api/patient/session`, 401);
    session.webRequest.complete('https://evil.com/api/kiosk/me', 401);
    session.webRequest.complete(`${PORTAL}/api/kiosk/me`, 500);
    await settle();
    expect(state.probes).toEqual([]);
  });

  it('should check once for a burst of 401s', async () => {
    const { session, state } = setUp(notEnrolled);
    for (let i = 0; i < 5; i++) session.webRequest.complete(`${PORTAL}/api/kiosk/me`, 401);
    await settle();
    expect(state.probes).toHaveLength(1);
    expect(state.revokedCalls).toBe(1);
  });
});
