import { describe, expect, it } from 'vitest';
import { PATIENT_SESSION_COOKIE } from '@contract/api/patient-access';
import { STAFF_SESSION_COOKIE } from '@contract/api/staff-access';
import { CSRF_HEADER, CSRF_HEADER_VALUE, sameHost } from '../../../../src-server/platform/plugins/csrf-guard';
import { backends } from '../../helpers/database';
import { useTestApp } from '../../helpers/test-app';

// CSRF (docs/rules/security.md#csrf): the session cookie is SameSite=None (for the provider's iframe), so
// unsafe API calls must prove they come from the portal itself.

const PUBLIC_URL = 'https://portal.example.org';
const LIAM = { bookingKey: 'DQZGrZ3wpC5qCgHhYxQeMw', type: 'APPOINTMENT', dateOfBirth: '1991-03-14' };

describe.each(backends().slice(0, 1))('CSRF guard on %s', (backend) => {
  const server = useTestApp({ backend, env: { PUBLIC_URL } });

  const logout = (headers: Record<string, string>) =>
    server.app.inject({
      method: 'POST',
      url: '/api/patient-access/logout',
      headers: { cookie: `${PATIENT_SESSION_COOKIE}=abc`, ...headers },
    });

  it('refuses a cookie-carrying unsafe call without the portal header (what a plain HTML form sends)', async () => {
    const response = await logout({});
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: 'forbidden' });
    expect(response.headers['set-cookie']).toBeUndefined();
  });

  it('treats the staff session cookie like the patient one', async () => {
    const call = (headers: Record<string, string>) =>
      server.app.inject({
        method: 'POST',
        url: '/api/patient-access/logout',
        headers: { cookie: `other=1; ${STAFF_SESSION_COOKIE}=abc`, ...headers },
      });
    expect((await call({})).statusCode).toBe(403);
    expect((await call({ [CSRF_HEADER]: CSRF_HEADER_VALUE })).statusCode).toBe(204);
  });

  it('lets the same call through with the header the web client sends, from its own origin', async () => {
    expect((await logout({ [CSRF_HEADER]: CSRF_HEADER_VALUE })).statusCode).toBe(204);
    expect((await logout({ [CSRF_HEADER]: CSRF_HEADER_VALUE, origin: PUBLIC_URL, 'sec-fetch-site': 'same-origin' })).statusCode).toBe(204);
  });

  it('refuses a foreign Origin or a cross-site fetch even with the header and without a cookie', async () => {
    for (const headers of [
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
    ]) {
      const response = await server.app.inject({
        method: 'POST',
        url: '/api/patient-access/authenticate',
        headers: { [CSRF_HEADER]: CSRF_HEADER_VALUE, ...headers },
        payload: LIAM,
      });
      expect(response.statusCode, JSON.stringify(headers)).toBe(403);
    }
  });

  it('answers a text/plain body (the other thing a form can post) with 415, and changes nothing', async () => {
    const response = await server.app.inject({
      method: 'POST',
      url: '/api/patient-access/authenticate',
      headers: { 'content-type': 'text/plain', [CSRF_HEADER]: CSRF_HEADER_VALUE },
      payload: JSON.stringify(LIAM),
    });
    expect(response.statusCode).toBe(415);
    expect(response.headers['set-cookie']).toBeUndefined();
  });

  it('leaves safe methods alone (a link from another site still opens the portal)', async () => {
    const response = await server.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    });
    expect(response.statusCode).toBe(200);
  });
});

describe('CSRF guard: Origin against the request host', () => {
  it.each([
    ['https://portal.example', 'portal.example', true],
    ['https://portal.example:443', 'portal.example', true],
    ['http://127.0.0.1:3000', '127.0.0.1:3000', true],
    ['https://evil.example', 'portal.example', false],
    ['https://portal.example.evil.example', 'portal.example', false],
    ['http://127.0.0.1:3001', '127.0.0.1:3000', false],
    ['null', 'portal.example', false],
  ])('%s sent to %s is the same host: %s', (origin, host, same) => {
    expect(sameHost(origin, host)).toBe(same);
  });
});
