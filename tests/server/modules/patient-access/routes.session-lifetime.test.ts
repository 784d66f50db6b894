import { beforeEach, describe, expect, it } from 'vitest';
import { PATIENT_SESSION_COOKIE } from '@contract/api/patient-access';
import { SESSION_IDLE_MS, SESSION_MAX_MS } from '../../../../src-server/modules/patient-access/service';
import { backends, SEED_NOW } from '../../helpers/database';
import { expectHostSessionCookie, parseSetCookie, type SetCookie } from '../../helpers/cookie-browser';
import { useTestApp } from '../../helpers/test-app';
import {
  authenticate,
  client,
  CHLOE,
  HARPER,
  HENRY,
  LIAM,
  mailedCode,
  NOAH,
  sendCode,
  sessionCheck,
  signInWithCode,
  verifyCode,
  ZOE,
  type Client,
  type Person,
} from './sign-in-kit';

// The session cookie and the session's life (docs/rules/patient-access.md#sessions): the
// __Host- cookie's attributes, a new token at each sign-in step, 30 minutes idle, 12 hours at
// most, logout. The demo provider has otpRequired on: a full sign-in is date of birth + code.

function expectPatientSessionCookie(cookie: SetCookie): void {
  expect(cookie.name).toBe(PATIENT_SESSION_COOKIE);
  expectHostSessionCookie(cookie, '__Host-portal_session');
}

describe.each(backends())('patient session lifetime on %s', (backend) => {
  const server = useTestApp({ backend });
  const { clock } = server;
  beforeEach(() => {
    clock.set(SEED_NOW);
  });

  const signIn = (person: Person, browser: Client = client(server.app)): Promise<Client> => signInWithCode(server.db, browser, person);

  const check = async (browser: Client, person: Person): Promise<number> => (await sessionCheck(browser, person.bookingKey)).statusCode;

  it('sets a __Host- cookie (Path=/, no Domain, Secure, HttpOnly, SameSite=None, Partitioned) with a new token at each step', async () => {
    // A browser that already holds a session (signed in before).
    const browser = await signIn(LIAM);
    const before = browser.token ?? '';
    clock.advance(5000);

    const dobStep = await authenticate(browser, LIAM);
    expect(dobStep.statusCode).toBe(200);
    const halfWay = parseSetCookie(dobStep);
    expectPatientSessionCookie(halfWay);
    expect(halfWay.value).not.toBe(before);

    await sendCode(browser);
    const codeStep = await verifyCode(browser, await mailedCode(server.db, LIAM.email));
    expect(codeStep.statusCode).toBe(200);
    const signedIn = parseSetCookie(codeStep);
    expectPatientSessionCookie(signedIn);
    expect(signedIn.value).not.toBe(halfWay.value);
    expect(signedIn.value).not.toBe(before);
    expect(await check(browser, LIAM)).toBe(200);

    // The earlier tokens open nothing any more.
    for (const old of [before, halfWay.value]) {
      browser.token = old;
      expect(await check(browser, LIAM)).toBe(401);
      expect((await verifyCode(browser, '123456')).statusCode).toBe(401);
    }

    const cleared = parseSetCookie(await client(server.app).request('POST', '/api/patient-access/logout'));
    expect(cleared.name).toBe(PATIENT_SESSION_COOKIE);
    expect(cleared.value).toBe('');
    expect(cleared.attributes.get('path')).toBe('/');
    expect(cleared.attributes.has('domain')).toBe(false);
    expect(cleared.attributes.get('max-age')).toBe('0');
  });

  it('keeps an idle session for 29:59 (and each request starts the 30 minutes again), ends it at 30:00', async () => {
    const browser = await signIn(CHLOE);
    clock.advance(SESSION_IDLE_MS - 1000);
    expect(await check(browser, CHLOE)).toBe(200);
    // That request refreshed it: another 29:59 from there still works.
    clock.advance(SESSION_IDLE_MS - 1000);
    expect(await check(browser, CHLOE)).toBe(200);
    clock.advance(SESSION_IDLE_MS);
    expect(await check(browser, CHLOE)).toBe(401);
    // Ended for good: coming back sooner does not revive it.
    clock.advance(-60_000);
    expect(await check(browser, CHLOE)).toBe(401);
  });

  it('ends the half-way session (code not yet given) after 30 minutes idle too', async () => {
    const browser = client(server.app);
    expect((await authenticate(browser, NOAH)).statusCode).toBe(200);
    await sendCode(browser);
    const code = await mailedCode(server.db, NOAH.email);
    clock.advance(SESSION_IDLE_MS);
    expect((await verifyCode(browser, code)).statusCode).toBe(401);
  });

  it('ends a session kept busy at 12 hours after sign-in', async () => {
    const browser = await signIn(HENRY);
    const start = clock.now().getTime();
    const step = 29 * 60_000;
    let requests = 0;
    for (let at = start + step; at < start + SESSION_MAX_MS; at += step) {
      clock.set(new Date(at));
      expect(await check(browser, HENRY)).toBe(200);
      requests += 1;
    }
    expect(requests).toBeGreaterThan(20);
    clock.set(new Date(start + SESSION_MAX_MS - 1));
    expect(await check(browser, HENRY)).toBe(200);
    clock.set(new Date(start + SESSION_MAX_MS));
    expect(await check(browser, HENRY)).toBe(401);
  });

  it('refuses the old cookie replayed after logout', async () => {
    const browser = await signIn(ZOE);
    const token = browser.token;
    expect((await browser.request('POST', '/api/patient-access/logout')).statusCode).toBe(204);
    expect(browser.token).toBeNull();
    browser.token = token;
    expect(await check(browser, ZOE)).toBe(401);
    expect((await browser.request('POST', '/api/patient-access/otp', { channel: 'EMAIL' })).statusCode).toBe(401);
    // A fresh sign-in from the same browser works again, under another token.
    await signIn(HARPER, browser);
    expect(browser.token).not.toBe(token);
    expect(await check(browser, HARPER)).toBe(200);
  });
});
