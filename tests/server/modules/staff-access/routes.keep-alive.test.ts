import { beforeEach, describe, expect, it } from 'vitest';
import { STAFF_SESSION_IDLE_MS, STAFF_SESSION_MAX_MS } from '../../../../src-server/modules/staff-access/service';
import { backends, SEED_NOW } from '../../helpers/database';
import { expectPingsEndAtMaximum, PING_EVERY_MS } from '../../helpers/keep-alive';
import { REFERRER_CLAIMS, staffBrowser, STAFF_CLAIMS, useStaffTestApp, type StaffBrowser } from './identity-kit';

// The open page's keep-alive ping for staff (docs/rules/staff-access.md#keep-alive): it slides the
// 30-minute idle timeout like any staff request, never past the 12-hour maximum.

describe.each(backends())('staff keep-alive on %s', (backend) => {
  const { server, signedIn } = useStaffTestApp({ backend });
  const { clock } = server;
  beforeEach(() => {
    clock.set(SEED_NOW);
  });

  const ping = async (browser: StaffBrowser): Promise<number> => (await browser.request('POST', '/api/staff-access/keep-alive')).statusCode;

  it('keeps a pinged session past 30 minutes of other inactivity; unpinged it ends', async () => {
    const pinged = await signedIn(STAFF_CLAIMS);
    const idle = await signedIn(REFERRER_CLAIMS, '198.51.100.21');
    for (let minutes = 10; minutes <= 60; minutes += 10) {
      clock.advance(PING_EVERY_MS);
      expect(await ping(pinged), `ping at ${minutes} min`).toBe(204);
    }
    expect((await pinged.me()).statusCode).toBe(200);
    expect((await idle.me()).statusCode, 'not pinged: ended at 30 minutes idle').toBe(401);
    expect(STAFF_SESSION_IDLE_MS).toBe(30 * 60_000);
  });

  it('never keeps a session past its 12-hour maximum, and is 401 without one', async () => {
    const browser = await signedIn(STAFF_CLAIMS);
    await expectPingsEndAtMaximum(clock, STAFF_SESSION_MAX_MS, () => ping(browser));
    expect(await ping(staffBrowser(server.app, '198.51.100.22'))).toBe(401);
  });
});
