import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_AFTER_SECONDS } from '../../src-server/app';
import { DETAILS_REQUESTS_RETRY_SECONDS, MAX_OPEN_DETAILS_REQUESTS } from '../../src-server/modules/appointments/service';
import {
  ENROLLMENT_FAILURE_LIMIT,
  ENROLLMENT_WINDOW_MS,
  IDENTITY_WINDOW_MS,
  KIOSK_IDENTITY_LIMIT,
  PERSON_IDENTITY_LIMIT,
} from '../../src-server/modules/kiosks/service';
import { KEY_WINDOW_MS, KEYS_PER_WINDOW } from '../../src-server/modules/questionnaires/routes';
import { SHARE_WINDOW_MS, SHARES_PER_HOUR } from '../../src-server/modules/result-shares/service';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '../../src-server/platform/plugins/csrf-guard';
import { cookieBrowser, type CookieBrowser } from './helpers/cookie-browser';
import { backends, SEED_NOW } from './helpers/database';
import { signIn } from './modules/appointments/self-service-kit';
import { addEnrolledKiosk } from './modules/kiosks/kiosk-kit';
import { LIAM, setOtpRequired } from './modules/patient-access/sign-in-kit';
import { deliverReport, INTEGRATION_ENV, resultsSignIn } from './modules/results/results-kit';
import { share } from './modules/result-shares/shares-kit';
import { KIOSK_ADMIN_CLAIMS, useStaffTestApp } from './modules/staff-access/identity-kit';

// Every limit's 429 says when to come back (docs/rules/security.md#limits-answer-with-retry-after):
// a Retry-After header of whole seconds, at least 1 and at most the limit's window, counted from
// the oldest attempt the window still holds. The booking, sign-in and code limits are driven in
// their own tests (booking/routes.limits, patient-access/routes.*); these are the others.

const SECOND = 1000;
/** The demo's check-in patient today (kiosks.test.ts). */
const OLIVIA_WHO = { lastName: 'Arrival', dateOfBirth: '1983-06-30' };

/** The Retry-After of a 429, checked to be a whole number of seconds in 1..maxSeconds. */
function retryAfterOf(response: LightMyRequestResponse, maxSeconds: number): number {
  expect(response.statusCode, response.body).toBe(429);
  const header = String(response.headers['retry-after'] ?? '');
  expect(header, 'Retry-After is a whole number of seconds').toMatch(/^[1-9]\d*$/);
  const seconds = Number(header);
  expect(seconds).toBeLessThanOrEqual(maxSeconds);
  expect(response.json<{ details?: { retryAfterSeconds?: number } }>().details?.retryAfterSeconds).toBe(seconds);
  return seconds;
}

describe.each(backends())('every limit answers 429 with Retry-After, on %s', (backend) => {
  const { server, signedIn } = useStaffTestApp({
    backend,
    env: INTEGRATION_ENV,
    // What a rate-limiting plugin answers: a plain error with statusCode 429 and no wait of its own.
    setup: (app) => {
      app.get('/api/test/plugin-limit', { config: { access: 'public' } }, () => {
        throw Object.assign(new Error('Rate limit exceeded'), { statusCode: 429 });
      });
    },
  });

  const kioskAdmin = (): Promise<CookieBrowser> => signedIn(KIOSK_ADMIN_CLAIMS);

  it('result shares: past SHARES_PER_HOUR, until the oldest share of the hour leaves it', async () => {
    server.clock.set(new Date(SEED_NOW));
    await deliverReport(server.app, server.db, LIAM.bookingKey, {
      accessionNumber: 'ACC-LIMIT-1',
      releaseAt: new Date(server.clock.now().getTime() - 86_400_000).toISOString(),
    });
    const liam = await resultsSignIn(server.app, server.db, LIAM);
    for (let index = 0; index < SHARES_PER_HOUR; index++) {
      expect((await share(liam, LIAM.bookingKey)).response.statusCode).toBe(201);
      server.clock.advance(10 * SECOND);
    }
    const refused = (await share(liam, LIAM.bookingKey)).response;
    expect(retryAfterOf(refused, SHARE_WINDOW_MS / SECOND)).toBe(SHARE_WINDOW_MS / SECOND - SHARES_PER_HOUR * 10);
  });

  it('temporary booking keys: past KEYS_PER_WINDOW from one address', async () => {
    const ask = () =>
      server.app.inject({
        method: 'POST',
        url: '/api/questionnaires/booking-keys',
        remoteAddress: '203.0.113.61',
        headers: { [CSRF_HEADER]: CSRF_HEADER_VALUE },
      });
    for (let index = 0; index < KEYS_PER_WINDOW; index++) expect((await ask()).statusCode).toBe(201);
    server.clock.advance(60 * SECOND);
    expect(retryAfterOf(await ask(), KEY_WINDOW_MS / SECOND)).toBe(KEY_WINDOW_MS / SECOND - 60);
  });

  it('kiosk enrollment: locked after ENROLLMENT_FAILURE_LIMIT wrong codes from one address', async () => {
    const kiosk = cookieBrowser(server.app, '__Host-portal_kiosk', '198.51.100.61');
    for (let index = 0; index < ENROLLMENT_FAILURE_LIMIT; index++)
      expect((await kiosk.request('POST', '/api/kiosk/enroll', { code: 'ZZZZ-ZZZZ' })).statusCode).toBe(400);
    server.clock.advance(30 * SECOND);
    const refused = await kiosk.request('POST', '/api/kiosk/enroll', { code: 'ZZZZ-ZZZZ' });
    expect(retryAfterOf(refused, ENROLLMENT_WINDOW_MS / SECOND)).toBe(ENROLLMENT_WINDOW_MS / SECOND - 30);
  });

  it('kiosk identity checks: past the per-person and the per-kiosk limits', async () => {
    server.clock.set(new Date(SEED_NOW));
    const { browser: kiosk } = await addEnrolledKiosk(
      server.app,
      await kioskAdmin(),
      { name: 'Limits lobby', clinicSlug: 'parramatta' },
      '198.51.100.62',
    );
    const check = (who: object) => kiosk.request('POST', '/api/kiosk/check-in/identity', who);
    for (let index = 0; index < PERSON_IDENTITY_LIMIT; index++) expect((await check(OLIVIA_WHO)).statusCode).toBe(200);
    server.clock.advance(SECOND);
    expect(retryAfterOf(await check(OLIVIA_WHO), IDENTITY_WINDOW_MS / SECOND)).toBe(IDENTITY_WINDOW_MS / SECOND - 1);
    for (let index = PERSON_IDENTITY_LIMIT; index < KIOSK_IDENTITY_LIMIT; index++)
      expect((await check({ lastName: `Probe${index}`, dateOfBirth: '1970-01-01' })).statusCode).toBe(200);
    server.clock.advance(2 * SECOND);
    const probing = await check({ lastName: 'Another', dateOfBirth: '1970-01-02' });
    expect(retryAfterOf(probing, IDENTITY_WINDOW_MS / SECOND)).toBe(IDENTITY_WINDOW_MS / SECOND - 3);
  });

  it('details change requests: past MAX_OPEN_DETAILS_REQUESTS open ones (no window: a day)', async () => {
    await setOtpRequired(server.db, false);
    const liam = await signIn(server.app, LIAM.bookingKey, LIAM.dateOfBirth);
    const path = `/api/appointments/${LIAM.bookingKey}/details-change-request`;
    for (let index = 0; index < MAX_OPEN_DETAILS_REQUESTS; index++)
      expect((await liam.post(path, { postcode: '2150' })).statusCode).toBe(201);
    expect(retryAfterOf(await liam.post(path, { postcode: '2150' }), DETAILS_REQUESTS_RETRY_SECONDS)).toBe(DETAILS_REQUESTS_RETRY_SECONDS);
  });

  it("a plugin's 429 without a wait of its own gets the default Retry-After", async () => {
    const response = await server.app.inject({ method: 'GET', url: '/api/test/plugin-limit' });
    expect(response.statusCode).toBe(429);
    expect(response.headers['retry-after']).toBe(String(DEFAULT_RETRY_AFTER_SECONDS));
    expect(response.json()).toEqual({ code: 'too_many_requests', message: 'Too many requests; try again later.' });
  });
});
