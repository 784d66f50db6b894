import { beforeEach, describe, expect, it } from 'vitest';
import { SESSION_IDLE_MS, SESSION_MAX_MS } from '../../../../src-server/modules/patient-access/service';
import { backends, SEED_NOW } from '../../helpers/database';
import { expectPingsEndAtMaximum, PING_EVERY_MS } from '../../helpers/keep-alive';
import { useTestApp } from '../../helpers/test-app';
import { authenticate, client, HENRY, LIAM, NOAH, sessionCheck, signInWithCode, type Client, type Person } from './sign-in-kit';

// The open page's keep-alive ping (docs/rules/patient-access.md#keep-alive): it slides the 30-minute
// idle timeout like any signed-in request, never past the 12-hour maximum, and opens nothing.

describe.each(backends())('patient keep-alive on %s', (backend) => {
  const server = useTestApp({ backend });
  const { clock } = server;
  beforeEach(() => {
    clock.set(SEED_NOW);
  });

  const signIn = (person: Person): Promise<Client> => signInWithCode(server.db, client(server.app), person);

  const ping = async (browser: Client): Promise<number> => (await browser.request('POST', '/api/patient-access/keep-alive')).statusCode;

  it('keeps a session whose page pings past 30 minutes without any other request', async () => {
    const browser = await signIn(LIAM);
    for (let minutes = 10; minutes <= 90; minutes += 10) {
      clock.advance(PING_EVERY_MS);
      expect(await ping(browser), `ping at ${minutes} min`).toBe(204);
    }
    clock.advance(SESSION_IDLE_MS - 1000);
    expect((await sessionCheck(browser, LIAM.bookingKey)).statusCode).toBe(200);
  });

  it('lets an unpinged session end at 30 minutes idle, and a late ping does not bring it back', async () => {
    const browser = await signIn(HENRY);
    clock.advance(SESSION_IDLE_MS);
    expect(await ping(browser)).toBe(401);
    clock.advance(-SESSION_IDLE_MS);
    expect((await sessionCheck(browser, HENRY.bookingKey)).statusCode).toBe(401);
  });

  it('never keeps a session past its 12-hour maximum', async () => {
    const browser = await signIn(NOAH);
    await expectPingsEndAtMaximum(clock, SESSION_MAX_MS, () => ping(browser));
  });

  it('is 401 without a session, and for a sign-in that is only half way (code not given)', async () => {
    expect(await ping(client(server.app))).toBe(401);
    const halfWay = client(server.app);
    expect((await authenticate(halfWay, LIAM)).statusCode).toBe(200);
    expect(await ping(halfWay)).toBe(401);
  });
});
