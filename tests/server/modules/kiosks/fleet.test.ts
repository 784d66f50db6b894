import { beforeAll, describe, expect, it } from 'vitest';
import { KioskListSchema, type Kiosk } from '@contract/api/kiosks';
import { backends } from '../../helpers/database';
import { cookieBrowser } from '../../helpers/cookie-browser';
import { KIOSK_ADMIN_CLAIMS, useStaffTestApp, type StaffBrowser } from '../staff-access/identity-kit';
import { addEnrolledKiosk, SEED } from './kiosk-kit';

// The fleet as IT staff see it (docs/rules/kiosk.md#fleet), on a real database: the kiosk app's
// heartbeat with its token header, silence after KIOSK_SILENT_MINUTES (5 by default) on the
// app's test clock, and a revocation that refuses the very next heartbeat.

const minutesAfterSeed = (minutes: number) => new Date(SEED.getTime() + minutes * 60_000);

function beat(overrides: Record<string, unknown> = {}) {
  return {
    appVersion: '1.4.2',
    uptimeSeconds: 3600,
    lastCrash: { at: '2026-03-10T00:40:00.000Z', reason: 'renderer gone: crashed (exit code 139)' },
    lastPatientActivityAt: '2026-03-10T00:58:00.000Z',
    lastOfflineAt: null,
    ...overrides,
  };
}

describe.each(backends())('the kiosk fleet on %s', (backend) => {
  const { server, signedIn } = useStaffTestApp({ backend });
  let itAdmin: StaffBrowser;

  /** An enrolled kiosk: its id and token (as the kiosk app keeps it). */
  async function enrolledKiosk(name: string): Promise<{ id: string; token: string }> {
    const { id, browser } = await addEnrolledKiosk(server.app, itAdmin, { name, clinicSlug: 'parramatta' }, '198.51.100.50');
    return { id, token: browser.token ?? '' };
  }

  const sendBeat = (token: string, body: object) =>
    server.app.inject({
      method: 'POST',
      url: '/api/kiosk/heartbeat',
      headers: { authorization: `Kiosk ${token}`, 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
      payload: JSON.stringify(body),
    });

  async function listed(id: string): Promise<{ kiosk: Kiosk; silentAfterMinutes: number }> {
    const response = await itAdmin.request('GET', '/api/staff/kiosks');
    expect(response.statusCode, response.body).toBe(200);
    const list = KioskListSchema.parse(response.json());
    const kiosk = list.kiosks.find((entry) => entry.id === id);
    if (kiosk === undefined) throw new Error(`kiosk ${id} is not listed`);
    return { kiosk, silentAfterMinutes: list.silentAfterMinutes };
  }

  beforeAll(async () => {
    server.clock.set(SEED);
    itAdmin = await signedIn(KIOSK_ADMIN_CLAIMS);
  });

  it('stores the heartbeat as the kiosk health the staff list shows, and calls a kiosk silent after 5 minutes unheard', async () => {
    server.clock.set(SEED);
    const kiosk = await enrolledKiosk('Parramatta lobby heartbeat');
    expect((await listed(kiosk.id)).kiosk).toMatchObject({ state: 'ENROLLED', health: null, silent: false });

    const answer = await sendBeat(kiosk.token, beat());
    expect(answer.statusCode, answer.body).toBe(204);
    const { kiosk: seen, silentAfterMinutes } = await listed(kiosk.id);
    expect(silentAfterMinutes).toBe(5);
    expect(seen).toMatchObject({
      silent: false,
      lastSeenAt: SEED.toISOString(),
      health: {
        at: SEED.toISOString(),
        appVersion: '1.4.2',
        uptimeSeconds: 3600,
        lastCrash: { at: '2026-03-10T00:40:00.000Z', reason: 'renderer gone: crashed (exit code 139)' },
        lastPatientActivityAt: '2026-03-10T00:58:00.000Z',
        lastOfflineAt: null,
      },
    });

    server.clock.set(minutesAfterSeed(5));
    expect((await listed(kiosk.id)).kiosk.silent).toBe(false);
    server.clock.set(minutesAfterSeed(6));
    expect((await listed(kiosk.id)).kiosk.silent).toBe(true);

    // A word from the kiosk again: no longer silent, the newer heartbeat replaces the older.
    expect((await sendBeat(kiosk.token, beat({ uptimeSeconds: 3960, lastCrash: null }))).statusCode).toBe(204);
    expect((await listed(kiosk.id)).kiosk).toMatchObject({ silent: false, health: { uptimeSeconds: 3960, lastCrash: null } });
  });

  it('refuses a bad heartbeat with a message and changes nothing', async () => {
    server.clock.set(SEED);
    const kiosk = await enrolledKiosk('Parramatta lobby bad beats');
    expect((await sendBeat(kiosk.token, beat())).statusCode).toBe(204);
    const before = (await listed(kiosk.id)).kiosk.health;

    for (const body of [
      beat({ uptimeSeconds: -1 }),
      beat({ appVersion: '' }),
      beat({ lastOfflineAt: 'yesterday' }),
      beat({ patientName: 'Olivia Arrival' }),
      beat({ lastPatientActivityAt: minutesAfterSeed(60).toISOString() }),
    ]) {
      const refused = await sendBeat(kiosk.token, body);
      expect(refused.statusCode, JSON.stringify(body)).toBe(400);
      expect(refused.json<{ message: string }>().message).not.toBe('');
    }
    expect((await listed(kiosk.id)).kiosk.health).toEqual(before);
  });

  it('stops an address after 10 wrong enrollment codes in 15 minutes, even with the right one, and lets another address in', async () => {
    server.clock.set(SEED);
    const added = await itAdmin.request('POST', '/api/staff/kiosks', { name: 'Parramatta lobby guessed', clinicSlug: 'parramatta' });
    const { code } = added.json<{ code: string }>();
    const guesser = cookieBrowser(server.app, '__Host-portal_kiosk', '203.0.113.66');
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const wrong = await guesser.request('POST', '/api/kiosk/enroll', { code: attempt % 2 === 0 ? 'ZZZZ-ZZZZ' : 'YYYY-YYYY' });
      expect(wrong.statusCode).toBe(400);
    }
    const stopped = await guesser.request('POST', '/api/kiosk/enroll', { code });
    expect(stopped.statusCode).toBe(429);
    expect(stopped.json<{ message: string }>().message).toMatch(/Too many wrong enrollment codes/);
    expect(guesser.token).toBeNull();

    // The code still works once, from the kiosk's own network; the guesser may try again later.
    const kiosk = cookieBrowser(server.app, '__Host-portal_kiosk', '198.51.100.60');
    expect((await kiosk.request('POST', '/api/kiosk/enroll', { code })).statusCode).toBe(200);
    server.clock.set(minutesAfterSeed(16));
    expect((await guesser.request('POST', '/api/kiosk/enroll', { code: 'ZZZZ-ZZZZ' })).statusCode).toBe(400);
  });

  it('refuses the next heartbeat of a revoked kiosk (401 kiosk_not_enrolled), and the list shows it revoked, not silent', async () => {
    server.clock.set(SEED);
    const kiosk = await enrolledKiosk('Parramatta lobby revoked');
    expect((await sendBeat(kiosk.token, beat())).statusCode).toBe(204);
    expect((await itAdmin.request('POST', `/api/staff/kiosks/${kiosk.id}/revoke`, {})).statusCode).toBe(200);
    const refused = await sendBeat(kiosk.token, beat());
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ code: 'kiosk_not_enrolled' });
    server.clock.set(minutesAfterSeed(10));
    expect((await listed(kiosk.id)).kiosk).toMatchObject({ state: 'REVOKED', silent: false });
  });
});
