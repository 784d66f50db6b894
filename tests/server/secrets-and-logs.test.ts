import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AppointmentCreateResponseSchema } from '@contract/api/booking';
import { PATIENT_SESSION_COOKIE } from '@contract/api/patient-access';
import { MIN_TOKEN_BYTES } from '../../src-server/platform/ids';
import { backends } from './helpers/database';
import { useTestApp } from './helpers/test-app';
import { book, patient, slotsOn } from './modules/booking/booking-test-kit';
import { authenticate, client, LIAM, sessionCheck, setOtpRequired } from './modules/patient-access/sign-in-kit';

// The booking key is an unguessable secret link that never leaks (docs/rules/security.md#tokens,
// #headers, #logging): at least 128 random bits, Referrer-Policy: no-referrer on every answer, and
// no booking key, date of birth, e-mail, phone, one-time password, session token or address in any
// log line, even at debug level. Input with CR/LF cannot forge log lines.

/** Values no seed or fixture uses, so a hit in the log can only come from this flow. */
const SENTINEL = {
  dateOfBirth: '1977-04-23',
  email: 'sentinel.qz7x@example.com',
  contactNumber: '0498765431',
  address: '198.51.100.73',
};

const BASE64URL_128 = /^[A-Za-z0-9_-]{22,}$/;
const bitsOf = (token: string): number => Buffer.from(token, 'base64url').length * 8;

describe.each(backends())('booking keys and logs on %s', (backend) => {
  const server = useTestApp({ backend, log: 'debug', webRoot: true });
  const { log } = server;

  async function bookSentinel(date: string, slot: number): Promise<string> {
    const startsAt = (await slotsOn(server.app, 'mri-knee', 'parramatta', date))[slot]?.startsAt ?? '';
    const response = await book(
      server.app,
      {
        exams: ['mri-knee'],
        clinicSlug: 'parramatta',
        startsAt,
        patient: patient({ dateOfBirth: SENTINEL.dateOfBirth, email: SENTINEL.email, contactNumber: SENTINEL.contactNumber }),
      },
      randomUUID(),
      { remoteAddress: SENTINEL.address },
    );
    expect(response.statusCode, response.body).toBe(201);
    return AppointmentCreateResponseSchema.parse(response.json()).bookingKey;
  }

  it('generates booking keys, hold ids and questionnaire keys of at least 128 bits, base64url, never twice', async () => {
    const keys = [await bookSentinel('2026-03-24', 0), await bookSentinel('2026-03-24', 2)];
    const startsAt = (await slotsOn(server.app, 'mri-knee', 'parramatta', '2026-03-26'))[0]?.startsAt ?? '';
    const held = await server.app.inject({
      method: 'POST',
      url: '/api/booking/holds',
      payload: { exams: ['mri-knee'], clinicSlug: 'parramatta', startsAt },
    });
    expect(held.statusCode, held.body).toBe(201);
    const holdId = (held.json() as { holdId: string }).holdId;
    const questionnaireKeys: string[] = [];
    for (let index = 0; index < 20; index += 1) {
      const issued = await server.app.inject({ method: 'POST', url: '/api/questionnaires/booking-keys', remoteAddress: '192.0.2.1' });
      expect(issued.statusCode).toBe(201);
      questionnaireKeys.push((issued.json() as { bookingKey: string }).bookingKey);
    }
    const all = [...keys, holdId, ...questionnaireKeys];
    for (const token of all) {
      expect(token).toMatch(BASE64URL_128);
      expect(bitsOf(token)).toBeGreaterThanOrEqual(MIN_TOKEN_BYTES * 8);
    }
    expect(new Set(all).size).toBe(all.length);
    // Random, not a counter or a clock: the keys differ in most positions (a counter shares a long prefix).
    const [a = '', b = ''] = questionnaireKeys;
    const same = [...a].filter((char, index) => b[index] === char).length;
    expect(same).toBeLessThan(a.length / 2);
  });

  it('sends Referrer-Policy: no-referrer on pages, API answers, errors and 404s', async () => {
    const urls = [
      '/',
      `/appointments/${LIAM.bookingKey}`,
      `/api/appointments/${LIAM.bookingKey}`,
      '/api/booking/catalogue',
      '/api/health',
      '/api/no-such-thing',
    ];
    for (const url of urls) {
      const response = await server.app.inject({ method: 'GET', url });
      expect(response.headers['referrer-policy'], url).toBe('no-referrer');
    }
    const posted = await server.app.inject({ method: 'POST', url: '/api/booking/appointments', payload: {} });
    expect(posted.headers['referrer-policy']).toBe('no-referrer');
  });

  it('logs a whole booking, sign-in and one-time password flow at debug level without a secret or personal detail', async () => {
    await setOtpRequired(server.db, true);
    const bookingKey = await bookSentinel('2026-03-25', 1);
    const browser = client(server.app, SENTINEL.address);
    expect((await authenticate(browser, { bookingKey, dateOfBirth: '1977-04-24' })).statusCode).toBe(401);
    expect(
      (await authenticate(browser, { bookingKey, dateOfBirth: SENTINEL.dateOfBirth }, { contactNumber: SENTINEL.contactNumber }))
        .statusCode,
    ).toBe(200);
    const halfToken = browser.token ?? '';
    expect((await browser.request('POST', '/api/patient-access/otp', { channel: 'EMAIL' })).statusCode).toBe(202);
    const [mail] = await server.db.query<{ text_body: string }>(
      `select text_body from outbox_mail where kind = 'otp_code' and recipient = $1 order by id desc limit 1`,
      [SENTINEL.email],
    );
    const code = /\b(\d{6})\b/.exec(mail?.text_body ?? '')?.[1] ?? '';
    expect(code).toMatch(/^\d{6}$/);
    const wrong = code === '000000' ? '000001' : '000000';
    expect((await browser.request('POST', '/api/patient-access/otp/verify', { code: wrong })).statusCode).toBe(401);
    expect((await browser.request('POST', '/api/patient-access/otp/verify', { code })).statusCode).toBe(200);
    const token = browser.token ?? '';
    expect((await sessionCheck(browser, bookingKey)).statusCode).toBe(200);
    expect((await browser.request('GET', `/api/appointments/${bookingKey}`)).statusCode).toBe(200);
    expect((await browser.request('GET', `/api/questionnaires/appointments/${bookingKey}`)).statusCode).toBe(200);
    // Refused: another booking with this session, and this booking with none.
    expect((await browser.request('GET', `/api/appointments/${LIAM.bookingKey}`)).statusCode).toBe(401);
    expect(
      (await server.app.inject({ method: 'GET', url: `/api/appointments/${bookingKey}`, remoteAddress: SENTINEL.address })).statusCode,
    ).toBe(401);
    // A page whose path holds the key, and a query that holds the date of birth.
    await server.app.inject({
      method: 'GET',
      url: `/appointments/${bookingKey}?dateOfBirth=${SENTINEL.dateOfBirth}`,
      remoteAddress: SENTINEL.address,
    });
    expect((await browser.request('POST', '/api/patient-access/logout')).statusCode).toBe(204);

    const text = log.text();
    expect(text).toContain('/api/patient-access/authenticate');
    expect(server.app.log.level).toBe('debug');
    const secrets = {
      bookingKey,
      dateOfBirth: SENTINEL.dateOfBirth,
      email: SENTINEL.email,
      phone: SENTINEL.contactNumber,
      otp: code,
      halfToken,
      token,
      address: SENTINEL.address,
    };
    for (const [name, secret] of Object.entries(secrets)) {
      expect(secret.length, name).toBeGreaterThan(5);
      const hits = log.lines.filter((line) => line.includes(secret));
      expect(hits, `${name} in the log`).toEqual([]);
    }
    expect(text).not.toContain(`${PATIENT_SESSION_COOKIE}=`);
  });

  it('keeps every log line one JSON object whatever CR/LF the input holds', async () => {
    const forged = '\r\n{"level":50,"msg":"forged line"}\r\n';
    const before = log.lines.length;
    await server.app.inject({
      method: 'POST',
      url: '/api/booking/appointments',
      remoteAddress: '192.0.2.10',
      headers: { 'idempotency-key': randomUUID() },
      payload: { exams: ['mri-knee'], clinicSlug: `x${forged}`, startsAt: forged, patient: patient({ firstName: `Ada${forged}` }) },
    });
    await server.app.inject({
      method: 'POST',
      url: '/api/patient-access/authenticate',
      remoteAddress: '192.0.2.10',
      headers: { 'content-type': 'application/json' },
      payload: `{"bookingKey":"${LIAM.bookingKey}\\r\\n{\\"level\\":50}","type":"APPOINTMENT","dateOfBirth":"1991-03-14\\r\\nx"}`,
    });
    await server.app.inject({ method: 'GET', url: `/api/appointments/abc%0D%0A%7B%22level%22%3A50%7D`, remoteAddress: '192.0.2.10' });
    await server.app.inject({ method: 'GET', url: `/appointments/abc%0D%0Aforged`, remoteAddress: '192.0.2.10' });
    await server.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'user-agent': 'x\u2028{"level":50}\u2029', referer: 'a\u0085b' },
    });
    const lines = log.lines.slice(before);
    expect(lines.length).toBeGreaterThan(4);
    for (const chunk of lines) {
      // pino writes one line per write: exactly one newline, at the end.
      expect(chunk.endsWith('\n')).toBe(true);
      const body = chunk.slice(0, -1);
      expect(body).not.toMatch(/[\r\n]/);
      const parsed: unknown = JSON.parse(body);
      expect(typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)).toBe(true);
    }
    expect(lines.join('')).not.toContain('forged line');
  });
});
