import { beforeEach, describe, expect, it } from 'vitest';
import { AuthenticateResponseSchema } from '@contract/api/patient-access';
import { CAPTCHA_HEADER } from '@contract/api/captcha';
import {
  CLIENT_SLOWDOWN_MAX_SECONDS,
  FAILURE_WINDOW_MS,
  MAX_FAILURES_PER_CLIENT,
} from '../../../../src-server/modules/patient-access/service';
import { solvedCaptcha } from '../../helpers/captcha';
import { backends, SEED_NOW } from '../../helpers/database';
import { useTestApp } from '../../helpers/test-app';
import {
  AMELIA,
  auditActions,
  authenticate,
  client,
  EVELYN,
  GRACE,
  HARPER,
  insertBookingRequest,
  JACK,
  lastAuditId,
  mailedCode,
  newAddress,
  sendCode,
  sessionCheck,
  verifyCode,
  wrongCode,
  type Client,
  type Person,
} from './sign-in-kit';

// The attempt limits (docs/rules/patient-access.md#attempts): a shared client address is slowed
// down and asked for a proof-of-work, never locked out; a booking key is locked after 5 failures
// of either step, with Retry-After; booking requests ask for the one-time password too.
// The demo provider has otpRequired on.

describe.each(backends())('sign-in attempt limits on %s', (backend) => {
  const server = useTestApp({ backend });
  const { clock } = server;
  beforeEach(() => {
    clock.set(SEED_NOW);
  });

  const captcha = async (): Promise<Record<string, string>> => ({ [CAPTCHA_HEADER]: await solvedCaptcha(server.app) });
  let guess = 0;
  /** A wrong answer on a key no booking has, so only the address's failures grow. */
  const wrongGuess = (browser: Client, headers: Record<string, string> = {}) => {
    guess += 1;
    return authenticate(browser, { bookingKey: `Guess${String(guess).padStart(17, '0')}`, dateOfBirth: '1970-01-01' }, {}, headers);
  };
  async function failuresOf(scope: 'client' | 'booking_key'): Promise<number> {
    const [row] = await server.db.query<{ count: number }>(`select count(*)::int as count from patient_access_failure where scope = $1`, [
      scope,
    ]);
    return row?.count ?? 0;
  }
  /**
   * Two sign-ins with `wrongDateOfBirth` (2 of the booking key's 5 failures), then the right one:
   * the browser waiting for its code, and the code mailed.
   */
  async function codeAfterTwoWrongDates(person: Person, wrongDateOfBirth: string): Promise<{ browser: Client; code: string }> {
    for (let attempt = 0; attempt < 2; attempt += 1) {
      expect((await authenticate(client(server.app), { ...person, dateOfBirth: wrongDateOfBirth })).statusCode).toBe(401);
    }
    const browser = client(server.app);
    expect((await authenticate(browser, person)).statusCode).toBe(200);
    await sendCode(browser);
    return { browser, code: await mailedCode(server.db, person.email) };
  }
  /** An address with MAX_FAILURES_PER_CLIENT failures, all at the current instant. */
  async function crowdedAddress(): Promise<string> {
    const address = newAddress();
    const attacker = client(server.app, address);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < MAX_FAILURES_PER_CLIENT; attempt += 1) statuses.push((await wrongGuess(attacker)).statusCode);
    // Every failure is a plain wrong answer: the address is never locked out.
    expect(statuses).toEqual(Array.from({ length: MAX_FAILURES_PER_CLIENT }, () => 401));
    return address;
  }

  it('lets a patient behind an address with 20 failures in: after a short wait and with a solved proof-of-work', async () => {
    const address = await crowdedAddress();
    const patient = client(server.app, address);

    const early = await authenticate(patient, JACK);
    expect(early.statusCode).toBe(429);
    expect(early.json()).toEqual({
      code: 'too_many_requests',
      message: 'Please wait 2 seconds and try again.',
      details: { retryAfterSeconds: 2 },
    });
    expect(early.headers['retry-after']).toBe('2');

    clock.advance(2000);
    const failuresBefore = await failuresOf('client');
    const before = await lastAuditId(server.db);
    // Without the proof-of-work the answer is not looked at, not even a wrong one, and nothing is counted.
    for (const dateOfBirth of [JACK.dateOfBirth, '1958-05-18']) {
      const refused = await authenticate(patient, { ...JACK, dateOfBirth });
      expect(refused.statusCode).toBe(403);
      expect(refused.json<{ code: string }>().code).toBe('captcha_required');
      expect(refused.headers['set-cookie']).toBeUndefined();
    }
    const forged = await authenticate(patient, JACK, {}, { [CAPTCHA_HEADER]: 'bm90LWEtc29sdXRpb24' });
    expect(forged.statusCode).toBe(403);
    expect(await failuresOf('client')).toBe(failuresBefore);
    expect((await auditActions(server.db, before)).map((row) => row.action)).toEqual([
      'patient_sign_in_captcha_required',
      'patient_sign_in_captcha_required',
      'patient_sign_in_captcha_required',
    ]);

    const headers = await captcha();
    const signedIn = await authenticate(patient, JACK, {}, headers);
    expect(signedIn.statusCode).toBe(200);
    expect(AuthenticateResponseSchema.parse(signedIn.json()).otpRequired).toBe(true);
    // A solved check is good for one attempt.
    expect((await authenticate(client(server.app, address), JACK, {}, headers)).statusCode).toBe(403);
    // Another address is not concerned.
    expect((await authenticate(client(server.app), JACK)).statusCode).toBe(200);
  });

  it('asks an address past the threshold to wait 2 s more per failure, at most 30 s, counted from its latest failure', async () => {
    const address = await crowdedAddress();
    const attacker = client(server.app, address);
    const waits: number[] = [];
    let wait = 2;
    for (let extra = 0; extra < 16; extra += 1) {
      clock.advance(wait * 1000 - 1);
      const tooSoon = await wrongGuess(attacker, await captcha());
      expect(tooSoon.statusCode).toBe(429);
      expect(tooSoon.headers['retry-after']).toBe('1');
      clock.advance(1);
      // With a solved check the (wrong) answer is looked at and counted.
      expect((await wrongGuess(attacker, await captcha())).statusCode).toBe(401);
      const next = await wrongGuess(attacker);
      expect(next.statusCode).toBe(429);
      wait = Number(next.headers['retry-after']);
      waits.push(wait);
    }
    expect(waits).toEqual([4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 30, 30]);
    expect(Math.max(...waits)).toBe(CLIENT_SLOWDOWN_MAX_SECONDS);
  });

  it('asks for the proof-of-work at the one-time-code step too, and a right code with it signs in', async () => {
    const address = await crowdedAddress();
    clock.advance(2000);
    const patient = client(server.app, address);
    expect((await authenticate(patient, AMELIA, {}, await captcha())).statusCode).toBe(200);
    expect((await sendCode(patient)).statusCode).toBe(202);
    const code = await mailedCode(server.db, AMELIA.email);

    const refused = await verifyCode(patient, code);
    expect(refused.statusCode).toBe(403);
    expect(refused.json<{ code: string }>().code).toBe('captcha_required');
    const [otp] = await server.db.query<{ failed_attempts: number; used: boolean }>(
      `select failed_attempts, used_at is not null as used from patient_otp where booking_key = $1`,
      [AMELIA.bookingKey],
    );
    expect(otp).toEqual({ failed_attempts: 0, used: false });

    expect((await verifyCode(patient, code, await captcha())).statusCode).toBe(200);
    expect((await sessionCheck(patient, AMELIA.bookingKey)).statusCode).toBe(200);
  });

  it('says in Retry-After when a locked booking opens again: when its oldest counted failure leaves the 15-minute window', async () => {
    const start = Date.parse(SEED_NOW);
    const statuses: number[] = [];
    for (let minute = 0; minute < 5; minute += 1) {
      clock.set(new Date(start + minute * 60_000));
      statuses.push((await authenticate(client(server.app), { ...GRACE, dateOfBirth: '1985-07-22' })).statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 429]);
    const at = async (offsetMs: number) => {
      clock.set(new Date(start + offsetMs));
      return authenticate(client(server.app), GRACE);
    };
    // The fifth failure came 4 minutes after the first: 11 minutes left.
    const locked = await at(4 * 60_000);
    expect(locked.statusCode).toBe(429);
    expect(locked.headers['retry-after']).toBe('660');
    expect(locked.json<{ details: unknown }>().details).toEqual({ maxAttempts: 'max_attempts_reached', retryAfterSeconds: 660 });
    expect((await at(4 * 60_000 + 100_000)).headers['retry-after']).toBe('560');
    expect((await at(FAILURE_WINDOW_MS - 1)).headers['retry-after']).toBe('1');
    // The first failure has left the window: 4 remain, and the right answer gets in.
    expect((await at(FAILURE_WINDOW_MS)).statusCode).toBe(200);
  });

  it('counts wrong codes against the booking key with the wrong dates of birth: together they lock it at 5', async () => {
    const { browser, code } = await codeAfterTwoWrongDates(EVELYN, '1951-02-12');
    expect((await verifyCode(browser, wrongCode(code))).statusCode).toBe(401);
    expect((await verifyCode(browser, wrongCode(code))).statusCode).toBe(401);
    const fifth = await verifyCode(browser, wrongCode(code));
    expect(fifth.statusCode).toBe(429);
    expect(fifth.json<{ code: string; details: unknown }>()).toMatchObject({
      code: 'max_attempts_reached',
      details: { maxAttempts: 'max_attempts_reached_results', retryAfterSeconds: 900 },
    });
    expect(fifth.headers['retry-after']).toBe('900');
    const rows = await server.db.query<{ stage: string; count: number }>(
      `select stage, count(*)::int as count from patient_access_failure where scope = 'booking_key' group by stage order by stage`,
    );
    expect(rows).toEqual(expect.arrayContaining([{ stage: 'otp', count: 3 }]));
    // Locked: the right code and the right date of birth are refused alike.
    expect((await verifyCode(browser, code)).statusCode).toBe(429);
    const again = await authenticate(client(server.app), EVELYN);
    expect(again.statusCode).toBe(429);
    expect(again.json<{ code: string }>().code).toBe('max_attempts_reached');
    expect((await sessionCheck(browser, EVELYN.bookingKey)).statusCode).toBe(401);
  });

  it('evaluates one of 8 parallel attempts from a slowed-down address, each with its own solved check', async () => {
    const address = await crowdedAddress();
    clock.advance(2000);
    const headers = await Promise.all(Array.from({ length: 8 }, () => captcha()));
    const failuresBefore = await failuresOf('client');
    const answers = await Promise.all(headers.map((header) => wrongGuess(client(server.app, address), header)));
    const statuses = answers.map((response) => response.statusCode).sort();
    expect(statuses).toEqual([401, 429, 429, 429, 429, 429, 429, 429]);
    expect(await failuresOf('client')).toBe(failuresBefore + 1);
  });

  it('evaluates only as many of 20 parallel wrong codes as the booking key has failures left', async () => {
    const { browser, code } = await codeAfterTwoWrongDates(HARPER, '1972-08-19');
    const answers = await Promise.all(Array.from({ length: 20 }, () => verifyCode(browser, wrongCode(code))));
    const statuses = answers.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 401)).toHaveLength(2);
    expect(statuses.filter((status) => status === 429)).toHaveLength(18);
    const [otp] = await server.db.query<{ failed_attempts: number }>(`select failed_attempts from patient_otp where booking_key = $1`, [
      HARPER.bookingKey,
    ]);
    expect(otp?.failed_attempts).toBe(3);
  });

  it('asks for the one-time password for a booking request as for an appointment', async () => {
    const request = {
      bookingKey: 'BrOtpRequest0000000001',
      dateOfBirth: '1990-01-02',
      email: 'ruby.request@example.com',
      contactNumber: '0491570999',
    };
    await insertBookingRequest(server.db, request, request.bookingKey);
    const browser = client(server.app);
    const answer = await authenticate(browser, request, { type: 'BOOKING_REQUEST' });
    expect(answer.statusCode).toBe(200);
    expect(AuthenticateResponseSchema.parse(answer.json())).toEqual({ otpRequired: true, otpChannels: ['EMAIL'], roleTranslations: '{}' });
    // The date of birth alone does not open it.
    expect((await sessionCheck(browser, request.bookingKey, 'BOOKING_REQUEST')).statusCode).toBe(401);
    expect((await sendCode(browser)).statusCode).toBe(202);
    const code = await mailedCode(server.db, request.email);
    const verified = await verifyCode(browser, code);
    expect(verified.statusCode).toBe(200);
    expect(verified.json()).toMatchObject({ bookingKey: request.bookingKey, type: 'BOOKING_REQUEST' });
    expect((await sessionCheck(browser, request.bookingKey, 'BOOKING_REQUEST')).statusCode).toBe(200);
  });
});
