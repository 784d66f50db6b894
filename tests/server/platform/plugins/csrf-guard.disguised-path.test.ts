import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { PATIENT_SESSION_COOKIE } from '@contract/api/patient-access';
import { STAFF_SESSION_COOKIE } from '@contract/api/staff-access';
import { isApiPath, isDisguisedApiPath } from '../../../../src-server/platform/api-path';
import { backends } from '../../helpers/database';
import { rowsOf, signIn } from '../../modules/appointments/self-service-kit';
import { appointmentBase, attachmentRows, MINIMAL_PDF, multipart } from '../../modules/attachments/attachments-kit';
import { setOtpRequired } from '../../modules/patient-access/sign-in-kit';
import { KIOSK_ADMIN_CLAIMS, useStaffTestApp, type StaffBrowser } from '../../modules/staff-access/identity-kit';

// The CSRF guard against a disguised /api prefix (docs/rules/security.md#csrf, from a pen
// test): the router decodes `/%61pi/...` to `/api/...`, so a guard that looked at the raw path
// let a cross-site form post through. Every unsafe call is checked whatever its path, and a path
// that reaches /api only through an escape, another case or an extra slash is refused outright.

const LIAM = { bookingKey: 'DQZGrZ3wpC5qCgHhYxQeMw', dateOfBirth: '1991-03-14' };
/** What a form or no-cors fetch on another site sends with the victim's cookie: no portal header. */
const CROSS_SITE = { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' };

/** The confirm path written plainly and in the disguises a router or proxy might still read as /api. */
const confirmPaths = (key: string): string[] => [
  `/%61pi/appointments/${key}/confirm`,
  `/%61%70%69/appointments/${key}/confirm`,
  `/%2561pi/appointments/${key}/confirm`,
  `/API/appointments/${key}/confirm`,
  `/Api/appointments/${key}/confirm`,
  `//api/appointments/${key}/confirm`,
  `/%2fapi/appointments/${key}/confirm`,
  `/api%2fappointments/${key}/confirm`,
  `/api%2Fappointments%2F${key}%2Fconfirm`,
];

function expectRefused(response: LightMyRequestResponse, label: string): void {
  expect(response.statusCode, `${label}: ${response.body}`).toBe(400);
  expect(response.json(), label).toEqual({ code: 'bad_request', message: 'The request is not valid.' });
  expect(response.headers['cache-control'], label).toBe('no-store');
  expect(response.headers['set-cookie'], label).toBeUndefined();
}

describe.each(backends())('CSRF guard on a disguised /api prefix on %s', (backend) => {
  const { server, signedIn } = useStaffTestApp({ backend, webRoot: true, env: { PUBLIC_URL: 'https://portal.example.org' } });
  let liamCookie = '';
  let kioskAdmin: StaffBrowser;

  beforeAll(async () => {
    await setOtpRequired(server.db, false);
    liamCookie = `${PATIENT_SESSION_COOKIE}=${(await signIn(server.app, LIAM.bookingKey, LIAM.dateOfBirth)).browser.token ?? ''}`;
    kioskAdmin = await signedIn(KIOSK_ADMIN_CLAIMS);
  });

  it('refuses a cross-site confirm through any disguise of /api, and the appointment stays BOOKED', async () => {
    const plain = await server.app.inject({
      method: 'POST',
      url: `/api/appointments/${LIAM.bookingKey}/confirm`,
      headers: { ...CROSS_SITE, cookie: liamCookie },
    });
    expect(plain.statusCode).toBe(403);
    for (const url of confirmPaths(LIAM.bookingKey)) {
      expectRefused(await server.app.inject({ method: 'POST', url, headers: { ...CROSS_SITE, cookie: liamCookie } }), url);
      // Refused before the route runs, even for a caller that looks like the portal.
      const portalLike = await server.app.inject({
        method: 'POST',
        url,
        headers: { cookie: liamCookie, 'x-requested-with': 'XMLHttpRequest' },
      });
      expectRefused(portalLike, `${url} with the portal header`);
    }
    expect((await rowsOf(server.db, LIAM.bookingKey)).map((row) => row.status)).toEqual(['BOOKED']);
  });

  it('refuses a cross-site multipart upload through /%61pi, and stores nothing', async () => {
    const body = multipart({}, { name: 'referral.pdf', type: 'application/pdf', bytes: MINIMAL_PDF });
    const before = (await attachmentRows(server.db, LIAM.bookingKey)).length;
    const response = await server.app.inject({
      method: 'POST',
      url: appointmentBase(LIAM.bookingKey).replace(/^\/api\//, '/%61pi/'),
      headers: { ...CROSS_SITE, cookie: liamCookie, ...body.headers },
      payload: body.payload,
    });
    expectRefused(response, 'upload');
    expect(await attachmentRows(server.db, LIAM.bookingKey)).toHaveLength(before);
  });

  it("refuses a cross-site kiosk revoke through /%61pi with a kiosk administrator's cookie; the kiosk stays", async () => {
    const added = await kioskAdmin.request('POST', '/api/staff/kiosks', { name: 'Disguised lobby', clinicSlug: 'parramatta' });
    expect(added.statusCode, added.body).toBe(201);
    const id = added.json<{ kiosk: { id: string } }>().kiosk.id;
    const cookie = `${STAFF_SESSION_COOKIE}=${kioskAdmin.token ?? ''}`;
    for (const url of [`/%61pi/staff/kiosks/${id}/revoke`, `/%2561pi/staff/kiosks/${id}/revoke`, `/API/staff/kiosks/${id}/revoke`]) {
      expectRefused(await server.app.inject({ method: 'POST', url, headers: { ...CROSS_SITE, cookie }, payload: {} }), url);
    }
    const list = await kioskAdmin.request('GET', '/api/staff/kiosks');
    expect(list.json<{ kiosks: Array<{ id: string; state: string }> }>().kiosks.find((kiosk) => kiosk.id === id)?.state).toBe('PENDING');
  });

  it('checks unsafe calls to any path, not only those that start with /api', async () => {
    const response = await server.app.inject({ method: 'POST', url: '/about', headers: { ...CROSS_SITE, cookie: liamCookie } });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: 'forbidden' });
    // From the portal itself a page still answers that it takes only GET.
    expect((await server.app.inject({ method: 'POST', url: '/about' })).statusCode).toBe(405);
  });

  it('reads a disguised GET the same way: refused and never cached, not the web app', async () => {
    for (const url of ['/%61pi/config/app', '/%61pi/does-not-exist', '/API/health', '//api/health']) {
      expectRefused(await server.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } }), url);
    }
    const plain = await server.app.inject({ method: 'GET', url: '/api/does-not-exist', headers: { accept: 'text/html' } });
    expect(plain.statusCode).toBe(404);
    expect(plain.json()).toMatchObject({ code: 'route_not_found' });
    // Escapes elsewhere in the path are the router's business, as before.
    expect((await server.app.inject({ method: 'GET', url: '/api/%68ealth' })).statusCode).toBe(200);
    expect((await server.app.inject({ method: 'GET', url: '/%61bout', headers: { accept: 'text/html' } })).statusCode).toBe(200);
  });
});

describe('reading a request path (api-path.ts)', () => {
  it.each([
    // url, the API, disguised
    ['/api', true, false],
    ['/api/appointments/k/confirm', true, false],
    ['/api?x=1', true, false],
    ['http://portal.example/api/health', true, false],
    ['/%61pi/appointments/k/confirm', true, true],
    ['/%2561pi/health', true, true],
    ['/API/health', true, true],
    ['//api/health', true, true],
    ['/./api/health', true, true],
    ['/%2fapi/health', true, true],
    ['/api%2fhealth', true, true],
    ['/api;x/health', true, true],
    ['/\\api/health', true, true],
    ['/%61%70%69%2f%ff', true, true],
    ['/apine/health', false, false],
    ['/about', false, false],
    ['/about?next=/api/x', false, false],
    ['/', false, false],
  ])('%s: the API %s, disguised %s', (url, api, disguised) => {
    expect(isApiPath(url)).toBe(api);
    expect(isDisguisedApiPath(url)).toBe(disguised);
  });
});
