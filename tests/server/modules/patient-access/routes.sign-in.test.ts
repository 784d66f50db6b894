import { createHash } from 'node:crypto';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AuthenticateResponseSchema, PATIENT_SESSION_COOKIE, SessionResponseSchema } from '@contract/api/patient-access';
import { ApiErrorBodySchema } from '@contract/errors';
import { SESSION_IDLE_MS, SESSION_MAX_MS } from '../../../../src-server/modules/patient-access/service';
import { backends, SEED_NOW } from '../../helpers/database';
import { useTestApp } from '../../helpers/test-app';
import {
  AMELIA,
  auditActions,
  authenticate,
  client,
  CHLOE,
  EVELYN,
  GRACE,
  HARPER,
  HENRY,
  insertBookingRequest,
  lastAuditId,
  LIAM,
  newAddress,
  NOAH,
  sessionCheck,
  setOtpRequired,
  UNKNOWN_KEY,
  ZOE,
} from './sign-in-kit';

// Date-of-birth sign-in without a one-time password (otpRequired off), the session cookie,
// the guard, logout, and the attempt limits. OTPs: routes.otp.test.ts.

describe.each(backends())('patient sign-in on %s', (backend) => {
  const server = useTestApp({ backend });
  const { clock } = server;
  beforeAll(() => setOtpRequired(server.db, false));
  beforeEach(() => {
    clock.set(SEED_NOW);
  });

  it('signs in with the right date of birth and sets an httpOnly, Secure, SameSite=None, Partitioned __Host- cookie', async () => {
    const browser = client(server.app);
    const response = await authenticate(browser, LIAM);
    expect(response.statusCode).toBe(200);
    expect(AuthenticateResponseSchema.parse(response.json())).toEqual({ otpRequired: false, otpChannels: [], roleTranslations: '{}' });
    const cookie = String(response.headers['set-cookie']);
    expect(cookie).toMatch(/^__Host-portal_session=[A-Za-z0-9_-]{43}; /);
    const attributes = cookie.split(';').map((part) => part.trim());
    expect(attributes).toEqual(expect.arrayContaining(['Path=/', 'HttpOnly', 'Secure', 'SameSite=None', 'Partitioned']));
    expect(response.headers['cache-control']).toBe('no-store');

    const check = await sessionCheck(browser, LIAM.bookingKey);
    expect(check.statusCode).toBe(200);
    expect(SessionResponseSchema.parse(check.json())).toEqual({
      isAuthenticated: true,
      bookingKey: LIAM.bookingKey,
      type: 'APPOINTMENT',
      roleTranslations: '{}',
    });
  });

  it('keeps only the sha256 of the session token in the database', async () => {
    const browser = client(server.app);
    await authenticate(browser, AMELIA);
    const token = browser.token ?? '';
    const rows = await server.db.query<{ token_sha256: string }>(`select token_sha256 from patient_session where booking_key = $1`, [
      AMELIA.bookingKey,
    ]);
    expect(rows.map((row) => row.token_sha256)).toContain(createHash('sha256').update(token).digest('hex'));
    const plain = await server.db.query(`select 1 from patient_session where token_sha256 = $1`, [token]);
    expect(plain).toHaveLength(0);
  });

  it('answers a wrong date of birth, a wrong contact number and an unknown key identically (401 authentication_failed), with no cookie', async () => {
    const answers = await Promise.all([
      authenticate(client(server.app), { ...GRACE, dateOfBirth: '1985-07-22' }),
      authenticate(client(server.app), GRACE, { contactNumber: '0491570999' }),
      authenticate(client(server.app), { ...GRACE, bookingKey: UNKNOWN_KEY }),
      authenticate(client(server.app), { ...GRACE, bookingKey: UNKNOWN_KEY }, { type: 'BOOKING_REQUEST' }),
    ]);
    for (const answer of answers) {
      expect(answer.statusCode).toBe(401);
      expect(answer.headers['set-cookie']).toBeUndefined();
      expect(answer.body).toBe(answers[0]?.body);
      expect(answer.headers['content-length']).toBe(answers[0]?.headers['content-length']);
    }
    expect(ApiErrorBodySchema.parse(answers[0]?.json())).toEqual({
      code: 'authentication_failed',
      message: 'The details do not match our records.',
    });
  });

  it('accepts the right contact number with the date of birth', async () => {
    const response = await authenticate(client(server.app), GRACE, { contactNumber: GRACE.contactNumber });
    expect(response.statusCode).toBe(200);
  });

  it.each([
    ['a contact number with letters', { contactNumber: '04915x0157' }],
    ['a contact number of 11 digits', { contactNumber: '04915701570' }],
    ['an impossible date', { dateOfBirth: '1985-02-30' }],
    ['a malformed booking key', { bookingKey: 'short' }],
    ['an unknown type', { type: 'RADIOLOGIST' }],
    ['a missing date of birth', { dateOfBirth: undefined }],
  ])('answers 400 validation_failed for %s, changing nothing', async (_name, extra) => {
    const before = await lastAuditId(server.db);
    const browser = client(server.app);
    const response = await authenticate(browser, HARPER, extra);
    expect(response.statusCode).toBe(400);
    expect(response.json<{ code: string }>().code).toBe('validation_failed');
    expect(response.headers['set-cookie']).toBeUndefined();
    expect(await auditActions(server.db, before)).toEqual([]);
  });

  it('signs in to a booking request against its patient, and that session is not an appointment session', async () => {
    const key = 'BRkeyBRkeyBRkeyBRkey01';
    await insertBookingRequest(server.db, { dateOfBirth: '1990-01-01', email: 'ruby@example.com', contactNumber: '0400000001' }, key);
    const browser = client(server.app);
    const wrong = await authenticate(browser, { bookingKey: key, dateOfBirth: '1990-01-02' }, { type: 'BOOKING_REQUEST' });
    expect(wrong.statusCode).toBe(401);
    // The key is a booking request's: as an appointment it is unknown.
    const asAppointment = await authenticate(browser, { bookingKey: key, dateOfBirth: '1990-01-01' });
    expect(asAppointment.statusCode).toBe(401);
    // Without otpRequired the date of birth signs in (with it, booking requests ask for the code
    // too: routes.attempt-limits.test.ts).
    const right = await authenticate(browser, { bookingKey: key, dateOfBirth: '1990-01-01' }, { type: 'BOOKING_REQUEST' });
    expect(right.statusCode).toBe(200);
    expect(right.json<{ otpRequired: boolean }>().otpRequired).toBe(false);
    expect((await sessionCheck(browser, key, 'BOOKING_REQUEST')).statusCode).toBe(200);
    expect((await sessionCheck(browser, key, 'APPOINTMENT')).statusCode).toBe(401);
  });

  it('refuses the session check for another booking key, without telling whether that key exists', async () => {
    const browser = client(server.app);
    await authenticate(browser, EVELYN);
    const other = await sessionCheck(browser, LIAM.bookingKey);
    const unknown = await sessionCheck(browser, UNKNOWN_KEY);
    expect(other.statusCode).toBe(401);
    expect(other.body).toBe(unknown.body);
    expect(other.json<{ code: string }>().code).toBe('unauthorized');
    expect((await sessionCheck(client(server.app), EVELYN.bookingKey)).statusCode).toBe(401);
    expect((await sessionCheck(browser, EVELYN.bookingKey)).statusCode).toBe(200);
  });

  it('signing in again replaces the browser’s earlier session', async () => {
    const browser = client(server.app);
    await authenticate(browser, EVELYN);
    const first = browser.token;
    await authenticate(browser, CHLOE);
    expect(browser.token).not.toBe(first);
    expect((await sessionCheck(browser, CHLOE.bookingKey)).statusCode).toBe(200);
    browser.token = first;
    expect((await sessionCheck(browser, EVELYN.bookingKey)).statusCode).toBe(401);
  });

  it('ends a session after 30 minutes idle; activity keeps it alive up to 12 hours', async () => {
    const idle = client(server.app);
    await authenticate(idle, CHLOE);
    clock.advance(SESSION_IDLE_MS - 1);
    expect((await sessionCheck(idle, CHLOE.bookingKey)).statusCode).toBe(200);
    clock.advance(SESSION_IDLE_MS);
    expect((await sessionCheck(idle, CHLOE.bookingKey)).statusCode).toBe(401);

    clock.set(SEED_NOW);
    const busy = client(server.app);
    await authenticate(busy, CHLOE);
    for (let elapsed = 0; elapsed + 20 * 60_000 < SESSION_MAX_MS; elapsed += 20 * 60_000) {
      clock.advance(20 * 60_000);
      expect((await sessionCheck(busy, CHLOE.bookingKey)).statusCode).toBe(200);
    }
    clock.set(new Date(Date.parse(SEED_NOW) + SESSION_MAX_MS));
    expect((await sessionCheck(busy, CHLOE.bookingKey)).statusCode).toBe(401);
    const rows = await server.db.query(`select 1 from patient_session where token_sha256 = $1`, [
      createHash('sha256')
        .update(busy.token ?? '')
        .digest('hex'),
    ]);
    expect(rows).toHaveLength(0);
  });

  it('logout deletes the session and clears the cookie; the old cookie no longer works', async () => {
    const browser = client(server.app);
    await authenticate(browser, NOAH);
    const token = browser.token;
    const before = await lastAuditId(server.db);
    const response = await browser.request('POST', '/api/patient-access/logout');
    expect(response.statusCode).toBe(204);
    const cleared = String(response.headers['set-cookie']);
    expect(cleared).toMatch(/^__Host-portal_session=; Path=\/; /);
    expect(cleared).toContain('Max-Age=0');
    expect(cleared).toContain('Partitioned');
    browser.token = token;
    expect((await sessionCheck(browser, NOAH.bookingKey)).statusCode).toBe(401);
    expect((await auditActions(server.db, before)).map((row) => row.action)).toEqual(['patient_signed_out']);
    // Without a session, logout still answers 204.
    expect((await client(server.app).request('POST', '/api/patient-access/logout')).statusCode).toBe(204);
  });

  it('locks a booking key after 5 failures in 15 minutes (429 max_attempts_reached), even for the right answer, then lets it in again', async () => {
    const before = await lastAuditId(server.db);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 5; attempt += 1) {
      // Different addresses: this is the per-key limit.
      statuses.push((await authenticate(client(server.app), { ...ZOE, dateOfBirth: '1949-04-27' })).statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 429]);
    const locked = await authenticate(client(server.app), ZOE);
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toEqual({
      code: 'max_attempts_reached',
      message: 'Too many attempts. Please try again later.',
      // The five failures came at one instant: the booking opens again 15 minutes after it.
      details: { maxAttempts: 'max_attempts_reached', retryAfterSeconds: 900 },
    });
    expect(locked.headers['retry-after']).toBe('900');
    const shared = await authenticate(client(server.app), ZOE, { shared: true });
    expect(shared.json<{ details: unknown }>().details).toEqual({ maxAttempts: 'max_attempts_reached_shared', retryAfterSeconds: 900 });

    const actions = await auditActions(server.db, before);
    expect(actions.map((row) => row.action)).toEqual([
      'patient_sign_in_failed',
      'patient_sign_in_failed',
      'patient_sign_in_failed',
      'patient_sign_in_failed',
      'patient_sign_in_failed',
      'patient_sign_in_locked',
      'patient_sign_in_refused_locked',
      'patient_sign_in_refused_locked',
    ]);
    // The audit names the key by a sha256 prefix only, and holds no date of birth.
    const ref = createHash('sha256').update(ZOE.bookingKey).digest('hex').slice(0, 16);
    for (const row of actions) {
      expect(row.subject_id).toBe(ref);
      const text = JSON.stringify(row);
      expect(text).not.toContain(ZOE.bookingKey);
      expect(text).not.toContain('1949');
    }

    clock.advance(15 * 60_000 + 1);
    expect((await authenticate(client(server.app), ZOE)).statusCode).toBe(200);
  });

  it('evaluates at most 5 of 30 parallel wrong guesses on one key', async () => {
    const guesses = await Promise.all(
      Array.from({ length: 30 }, () => authenticate(client(server.app), { ...HENRY, dateOfBirth: '1962-10-04' })),
    );
    const statuses = guesses.map((guess) => guess.statusCode);
    expect(statuses.filter((status) => status === 401)).toHaveLength(4);
    expect(statuses.filter((status) => status === 429)).toHaveLength(26);
    const audits = await server.db.query<{ count: number }>(
      `select count(*)::int as count from audit_log where action = 'patient_sign_in_failed' and subject_id = $1`,
      [createHash('sha256').update(HENRY.bookingKey).digest('hex').slice(0, 16)],
    );
    expect(audits[0]?.count).toBe(5);
  });

  it('refuses sign-in and logout posted from another site’s page (403), and accepts the portal’s own origin', async () => {
    const foreign = await server.app.inject({
      method: 'POST',
      url: '/api/patient-access/authenticate',
      remoteAddress: newAddress(),
      headers: { origin: 'https://evil.example' },
      payload: { bookingKey: CHLOE.bookingKey, type: 'APPOINTMENT', dateOfBirth: CHLOE.dateOfBirth },
    });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.headers['set-cookie']).toBeUndefined();
    const own = await server.app.inject({
      method: 'POST',
      url: '/api/patient-access/authenticate',
      remoteAddress: newAddress(),
      headers: { origin: 'http://localhost', host: 'localhost' },
      payload: { bookingKey: CHLOE.bookingKey, type: 'APPOINTMENT', dateOfBirth: CHLOE.dateOfBirth },
    });
    expect(own.statusCode).toBe(200);
    const browser = client(server.app);
    await authenticate(browser, CHLOE);
    const logout = await server.app.inject({
      method: 'POST',
      url: '/api/patient-access/logout',
      headers: { origin: 'https://evil.example', cookie: `${PATIENT_SESSION_COOKIE}=${browser.token ?? ''}` },
    });
    expect(logout.statusCode).toBe(403);
    expect((await sessionCheck(browser, CHLOE.bookingKey)).statusCode).toBe(200);
  });

  it('audits a success without personal data', async () => {
    const before = await lastAuditId(server.db);
    await authenticate(client(server.app), HARPER, { contactNumber: HARPER.contactNumber });
    const actions = await auditActions(server.db, before);
    expect(actions.map((row) => row.action)).toEqual(['patient_sign_in_succeeded']);
    const text = JSON.stringify(actions);
    for (const secret of [HARPER.bookingKey, HARPER.dateOfBirth, HARPER.contactNumber, HARPER.email]) expect(text).not.toContain(secret);
  });
});
