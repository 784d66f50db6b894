import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SendOtpResponseSchema, SessionResponseSchema } from '@contract/api/patient-access';
import { OTP_TTL_MS } from '../../../../src-server/modules/patient-access/service';
import { createSmtpMailer, type Mailer } from '../../../../src-server/platform/mailer';
import { createOutboxWorker } from '../../../../src-server/platform/outbox/outbox-worker';
import { createHttpSmsSender } from '../../../../src-server/platform/sms/sms-provider';
import { createSmsWorker } from '../../../../src-server/platform/sms/sms-worker';
import { backends, SEED_NOW } from '../../helpers/database';
import { useTestApp } from '../../helpers/test-app';
import { collectingLogger, smtpConfigFor, startTestSmtpServer, type TestSmtpServer } from '../../helpers/test-smtp-server';
import { startTestSmsProvider, type TestSmsProvider } from '../../helpers/test-sms-provider';
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
  JACK,
  lastAuditId,
  LIAM,
  NOAH,
  sessionCheck,
  type Client,
  type Person,
  ZOE,
} from './sign-in-kit';

// One-time passwords (otpRequired is on in the demo provider, otpResendSeconds 5): by e-mail
// through the real outbox and a real SMTP server, by SMS through the SMS outbox and a real HTTP
// provider; hashing, expiry, single use, wrong tries, resend limits, audit.

describe.each(backends())('one-time passwords on %s', (backend) => {
  let smtp: TestSmtpServer;
  let sms: TestSmsProvider;
  let mailer: Mailer;
  beforeAll(async () => {
    smtp = await startTestSmtpServer();
    sms = await startTestSmsProvider();
    mailer = createSmtpMailer(smtpConfigFor(smtp.port));
  });
  afterAll(async () => {
    await mailer.close();
    await smtp.stop();
    await sms.stop();
  });
  // Registered after the SMTP and SMS servers: the app is built with their address and closed before them.
  const server = useTestApp({ backend, env: () => ({ SMS_PROVIDER_URL: sms.url, SMS_PROVIDER_API_KEY: 'test-sms-key' }) });
  const { clock } = server;
  beforeEach(() => {
    clock.set(SEED_NOW);
  });

  /** The code in the newest OTP e-mail queued for this address (the outbox row is the mail). */
  async function mailedCode(email: string): Promise<string> {
    const rows = await server.db.query<{ text_body: string }>(
      `select text_body from outbox_mail where recipient = $1 and kind = 'otp_code' order by id desc limit 1`,
      [email],
    );
    const code = /\b(\d{6})\b/.exec(rows[0]?.text_body ?? '')?.[1];
    if (code === undefined) throw new Error(`no OTP mail for ${email}`);
    return code;
  }

  async function dobStep(person: Person, browser: Client = client(server.app), extra: object = {}): Promise<Client> {
    const response = await authenticate(browser, person, extra);
    expect(response.statusCode).toBe(200);
    return browser;
  }

  const sendCode = (browser: Client, channel: 'EMAIL' | 'SMS' = 'EMAIL') => browser.request('POST', '/api/patient-access/otp', { channel });
  const verify = (browser: Client, code: string) => browser.request('POST', '/api/patient-access/otp/verify', { code });
  const wrongCode = (code: string): string => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

  it('signs in with date of birth, then a code e-mailed through the outbox to a real SMTP server', async () => {
    const before = await lastAuditId(server.db);
    const browser = client(server.app);
    const first = await authenticate(browser, LIAM);
    expect(first.json()).toEqual({ otpRequired: true, otpChannels: ['EMAIL', 'SMS'], roleTranslations: '{}' });
    const halfToken = browser.token;
    // Not signed in yet: the date of birth alone does not open the booking.
    expect((await sessionCheck(browser, LIAM.bookingKey)).statusCode).toBe(401);

    const sent = await sendCode(browser);
    expect(sent.statusCode).toBe(202);
    expect(SendOtpResponseSchema.parse(sent.json())).toEqual({ resendAfterSeconds: 5, destination: 'l***@example.com' });

    const worker = createOutboxWorker({ db: server.db, mailer, clock, logger: collectingLogger(), pollMs: 1000, maxAttempts: 3 });
    expect((await worker.runOnce()).sent).toBeGreaterThanOrEqual(1);
    const mails = await smtp.waitForMails(1);
    const mail = mails.find((item) => item.envelopeTo.includes(LIAM.email));
    const code = /\b(\d{6})\b/.exec(mail?.parsed.text ?? '')?.[1] ?? '';
    expect(code).toMatch(/^\d{6}$/);
    expect(mail?.parsed.subject).toContain('verification code');
    expect(mail?.parsed.text).not.toContain(LIAM.bookingKey);

    const verified = await verify(browser, code);
    expect(verified.statusCode).toBe(200);
    expect(SessionResponseSchema.parse(verified.json())).toEqual({
      isAuthenticated: true,
      bookingKey: LIAM.bookingKey,
      type: 'APPOINTMENT',
      roleTranslations: '{}',
    });
    // A new token at authentication; the half-way one is dead.
    expect(browser.token).not.toBeNull();
    expect(browser.token).not.toBe(halfToken);
    expect(String(verified.headers['set-cookie'])).toContain('Partitioned');
    expect((await sessionCheck(browser, LIAM.bookingKey)).statusCode).toBe(200);
    const stale = client(server.app, browser.address);
    stale.token = halfToken;
    expect((await sessionCheck(stale, LIAM.bookingKey)).statusCode).toBe(401);

    const actions = await auditActions(server.db, before);
    expect(actions.map((row) => row.action)).toEqual(['patient_sign_in_dob_verified', 'patient_otp_sent', 'patient_sign_in_succeeded']);
    expect(JSON.stringify(actions)).not.toContain(code);
  });

  it('stores the code only as an HMAC with a per-row salt', async () => {
    const browser = await dobStep(AMELIA);
    await sendCode(browser);
    const code = await mailedCode(AMELIA.email);
    const rows = await server.db.query<Record<string, unknown>>(`select * from patient_otp where booking_key = $1`, [AMELIA.bookingKey]);
    expect(rows).toHaveLength(1);
    const row = rows[0] ?? {};
    expect(String(row.code_hmac)).toMatch(/^[0-9a-f]{64}$/);
    expect(String(row.salt)).toMatch(/^[0-9a-f]{32}$/);
    for (const value of Object.values(row)) expect(String(value)).not.toContain(code);
  });

  it('accepts a code until just before 10 minutes and refuses it at 10 minutes (otp_expired)', async () => {
    const early = await dobStep(GRACE);
    await sendCode(early);
    clock.advance(OTP_TTL_MS - 1);
    expect((await verify(early, await mailedCode(GRACE.email))).statusCode).toBe(200);

    clock.set(SEED_NOW);
    const late = await dobStep(HARPER);
    await sendCode(late);
    clock.advance(OTP_TTL_MS);
    const refused = await verify(late, await mailedCode(HARPER.email));
    expect(refused.statusCode).toBe(401);
    expect(refused.json<{ code: string }>().code).toBe('otp_expired');
  });

  it('uses a code once: of 10 parallel submits exactly one signs in', async () => {
    const browser = await dobStep(EVELYN);
    await sendCode(browser);
    const code = await mailedCode(EVELYN.email);
    const halfToken = browser.token;
    const submits = await Promise.all(
      Array.from({ length: 10 }, () => {
        const copy = client(server.app, browser.address);
        copy.token = halfToken;
        return verify(copy, code);
      }),
    );
    const statuses = submits.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 401)).toHaveLength(9);
    const sessions = await server.db.query(`select 1 from patient_session where booking_key = $1 and stage = 'authenticated'`, [
      EVELYN.bookingKey,
    ]);
    expect(sessions).toHaveLength(1);
  });

  it('refuses the code after a newer one was sent, and refuses a code when none was sent', async () => {
    const browser = await dobStep(CHLOE);
    expect((await verify(browser, '123456')).json<{ code: string }>().code).toBe('otp_expired');
    await sendCode(browser);
    const first = await mailedCode(CHLOE.email);
    clock.advance(5_000);
    expect((await sendCode(browser)).statusCode).toBe(202);
    const second = await mailedCode(CHLOE.email);
    if (first !== second) expect((await verify(browser, first)).json<{ code: string }>().code).toBe('otp_invalid');
    expect((await verify(browser, second)).statusCode).toBe(200);
  });

  it('burns a code at the 5th wrong try (429 max_attempts_reached, max_attempts_reached_results); the right code is refused after', async () => {
    const before = await lastAuditId(server.db);
    const browser = await dobStep(NOAH);
    await sendCode(browser);
    const code = await mailedCode(NOAH.email);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 4; attempt += 1) {
      const response = await verify(browser, wrongCode(code));
      statuses.push(response.statusCode);
      expect(response.json<{ code: string }>().code).toBe('otp_invalid');
    }
    const fifth = await verify(browser, wrongCode(code));
    expect(fifth.statusCode).toBe(429);
    expect(fifth.json()).toEqual({
      code: 'max_attempts_reached',
      message: 'Too many attempts. Please try again later.',
      details: { maxAttempts: 'max_attempts_reached_results', retryAfterSeconds: 900 },
    });
    expect(statuses).toEqual([401, 401, 401, 401]);
    expect((await verify(browser, code)).statusCode).toBe(429);
    expect((await sessionCheck(browser, NOAH.bookingKey)).statusCode).toBe(401);
    const [row] = await server.db.query<{ failed_attempts: number; burnt: boolean }>(
      `select failed_attempts, burnt_at is not null as burnt from patient_otp where booking_key = $1`,
      [NOAH.bookingKey],
    );
    expect(row).toEqual({ failed_attempts: 5, burnt: true });
    const actions = (await auditActions(server.db, before)).map((entry) => entry.action);
    expect(actions.filter((action) => action === 'patient_otp_failed')).toHaveLength(5);
    expect(actions).toContain('patient_otp_locked');
    expect(actions).toContain('patient_otp_refused_locked');
  });

  it('says max_attempts_reached_shared for a shared sign-in', async () => {
    const browser = await dobStep(ZOE, client(server.app), { shared: true });
    await sendCode(browser);
    const code = await mailedCode(ZOE.email);
    for (let attempt = 0; attempt < 4; attempt += 1) await verify(browser, wrongCode(code));
    expect((await verify(browser, wrongCode(code))).json<{ details: unknown }>().details).toEqual({
      maxAttempts: 'max_attempts_reached_shared',
      retryAfterSeconds: 900,
    });
  });

  it('throttles resends: not before otpResendSeconds (429 with Retry-After), and at most 5 codes per booking an hour', async () => {
    const browser = await dobStep(JACK);
    expect((await sendCode(browser)).statusCode).toBe(202);
    clock.advance(4_000);
    const tooSoon = await sendCode(browser);
    expect(tooSoon.statusCode).toBe(429);
    expect(tooSoon.json<{ code: string }>().code).toBe('too_many_requests');
    expect(tooSoon.headers['retry-after']).toBe('1');
    for (let sent = 1; sent < 5; sent += 1) {
      clock.advance(5_000);
      expect((await sendCode(browser)).statusCode).toBe(202);
    }
    clock.advance(60_000);
    const sixth = await sendCode(browser);
    expect(sixth.statusCode).toBe(429);
    // A new sign-in does not reset the per-booking limit.
    expect((await sendCode(await dobStep(JACK))).statusCode).toBe(429);
    const queued = await server.db.query(`select 1 from outbox_mail where recipient = $1 and kind = 'otp_code'`, [JACK.email]);
    expect(queued).toHaveLength(5);
    clock.advance(60 * 60_000);
    expect((await sendCode(await dobStep(JACK))).statusCode).toBe(202);
  });

  it('needs the date-of-birth step: no session, or a finished one, gets 401 for sending and verifying', async () => {
    const nobody = client(server.app);
    expect((await sendCode(nobody)).statusCode).toBe(401);
    expect((await verify(nobody, '000000')).statusCode).toBe(401);
    const done = await dobStep(AMELIA);
    clock.advance(60_000);
    await sendCode(done);
    expect((await verify(done, await mailedCode(AMELIA.email))).statusCode).toBe(200);
    expect((await sendCode(done)).statusCode).toBe(401);
    expect((await verify(done, await mailedCode(AMELIA.email))).statusCode).toBe(401);
    // Who is asking is checked before the body is read: without the step, a bad body is a 401 too.
    expect((await client(server.app).request('POST', '/api/patient-access/otp', { channel: 'FAX' })).statusCode).toBe(401);
    const started = await dobStep(AMELIA);
    expect((await started.request('POST', '/api/patient-access/otp', { channel: 'FAX' })).statusCode).toBe(400);
    expect((await started.request('POST', '/api/patient-access/otp/verify', { code: '12345' })).statusCode).toBe(400);
  });

  it('sends the code by SMS through the SMS outbox to the HTTP provider (bearer key, JSON {to, text})', async () => {
    const browser = await dobStep(HENRY);
    const sent = await sendCode(browser, 'SMS');
    expect(sent.statusCode).toBe(202);
    expect(sent.json()).toEqual({ resendAfterSeconds: 5, destination: '*******804' });
    const worker = createSmsWorker({
      db: server.db,
      sender: createHttpSmsSender({ url: sms.url, apiKey: 'test-sms-key' }),
      clock,
      logger: collectingLogger(),
      pollMs: 1000,
      maxAttempts: 3,
    });
    expect(await worker.runOnce()).toEqual({ sent: 1, retried: 0, failed: 0 });
    const [message] = await sms.waitFor(1);
    expect(message?.method).toBe('POST');
    expect(message?.authorization).toBe('Bearer test-sms-key');
    expect(message?.contentType).toContain('application/json');
    const body = message?.body as { to: string; text: string };
    expect(body.to).toBe(HENRY.contactNumber);
    const code = /\b(\d{6})\b/.exec(body.text)?.[1] ?? '';
    expect(code).toMatch(/^\d{6}$/);
    expect((await verify(browser, code)).statusCode).toBe(200);
    expect((await sessionCheck(browser, HENRY.bookingKey)).statusCode).toBe(200);
  });
});

describe('one-time passwords to one destination', () => {
  const server = useTestApp();
  it('sends at most 10 codes an hour to one e-mail address, across bookings', async () => {
    const { clock } = server;
    const people = [
      LIAM,
      { bookingKey: 'Nj3PQywTfwZs5UvmttODPA', dateOfBirth: '1957-01-30' },
      { bookingKey: 'BFSMa1I94pcis4LgybhGOg', dateOfBirth: '1979-09-09' },
    ];
    await server.db.query(
      `update patient set email = 'family@example.com' where id in (select patient_id from appointment where booking_key = any($1::text[]))`,
      [people.map((person) => person.bookingKey)],
    );
    const statuses: number[] = [];
    for (const person of people) {
      const browser = client(server.app);
      expect((await authenticate(browser, person)).statusCode).toBe(200);
      for (let send = 0; send < 4; send += 1) {
        clock.advance(5_000);
        statuses.push((await browser.request('POST', '/api/patient-access/otp', { channel: 'EMAIL' })).statusCode);
      }
    }
    expect(statuses).toEqual([202, 202, 202, 202, 202, 202, 202, 202, 202, 202, 429, 429]);
    const reasons = await server.db.query<{ reason: string }>(
      `select details->>'reason' as reason from audit_log where action = 'patient_otp_throttled'`,
    );
    expect(reasons.map((row) => row.reason)).toEqual(['destination_limit', 'destination_limit']);
  });
});

describe('one-time passwords with SESSION_SECRET', () => {
  const secret = 'a-configured-session-secret-of-40-chars!';
  const server = useTestApp({ env: { SESSION_SECRET: secret } });
  it('keys the code HMAC with the configured secret and stores no secret of its own', async () => {
    const browser = client(server.app);
    await authenticate(browser, LIAM);
    expect((await browser.request('POST', '/api/patient-access/otp', { channel: 'EMAIL' })).statusCode).toBe(202);
    const [mail] = await server.db.query<{ text_body: string }>(`select text_body from outbox_mail where kind = 'otp_code'`);
    const code = /\b(\d{6})\b/.exec(mail?.text_body ?? '')?.[1] ?? '';
    const [otp] = await server.db.query<{ salt: string; code_hmac: string }>(`select salt, code_hmac from patient_otp`);
    expect(otp?.code_hmac).toBe(
      createHmac('sha256', secret)
        .update(`otp:${otp?.salt ?? ''}:${code}`)
        .digest('hex'),
    );
    expect(await server.db.query(`select 1 from patient_access_secret`)).toHaveLength(0);
  });
});

describe('one-time passwords without an SMS provider', () => {
  const server = useTestApp();
  it('offers e-mail only and refuses an SMS code with 400', async () => {
    const browser = client(server.app);
    const response = await authenticate(browser, LIAM);
    expect(response.json<{ otpChannels: string[] }>().otpChannels).toEqual(['EMAIL']);
    const refused = await browser.request('POST', '/api/patient-access/otp', { channel: 'SMS' });
    expect(refused.statusCode).toBe(400);
    expect(await server.db.query(`select 1 from outbox_sms`)).toHaveLength(0);
    expect(await server.db.query(`select 1 from patient_otp`)).toHaveLength(0);
  });
});
