import { randomUUID } from 'node:crypto';
import type { FastifyRequest, LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { CAPTCHA_HEADER } from '@contract/api/captcha';
import { createBookingLimiter, exemptFromCaptcha } from '../../../../src-server/modules/booking/booking-limits';
import { createCaptcha } from '../../../../src-server/platform/captcha/captcha';
import { captchaHeaders, solvedCaptcha } from '../../helpers/captcha';
import { backends, SEED_NOW } from '../../helpers/database';
import { book, countRows, hold, newClientAddress, patient, requestBooking, slotsOn } from './booking-test-kit';
import { SMALL_LIMITS, useLimitedApp } from './limited-app';

// SEED_NOW is Tuesday 2026-03-10 12:00 in Sydney (UTC+11): the day's counts free at the next
// Sydney midnight, 12 hours later.
const SECONDS_TO_MIDNIGHT = 12 * 60 * 60;

const EXAM = 'ct-brain';
const CLINIC = 'parramatta';
const DATE = '2026-03-19';

describe.each(backends())('booking limits on %s', (backend) => {
  const server = useLimitedApp(backend, SMALL_LIMITS);

  /** A time still free (holds and bookings take them one after another). */
  async function freeTime(): Promise<string> {
    const [slot] = await slotsOn(server.app, EXAM, CLINIC, DATE);
    if (slot === undefined) throw new Error('no free time left');
    return slot.startsAt;
  }

  async function bookFrom(address: string, details = patient(), headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    return book(server.app, { exams: [EXAM], clinicSlug: CLINIC, startsAt: await freeTime(), patient: details }, randomUUID(), {
      remoteAddress: address,
      headers,
    });
  }

  async function holdFrom(address: string, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    return hold(server.app, { exams: [EXAM], clinicSlug: CLINIC, startsAt: await freeTime() }, { remoteAddress: address, headers });
  }

  const stored = async (): Promise<number[]> =>
    Promise.all(['appointment', 'booking_request', 'outbox_mail'].map((table) => countRows(server.db, table)));

  function expectCaptchaRequired(response: LightMyRequestResponse): void {
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: 'captcha_required', details: { header: CAPTCHA_HEADER } });
  }

  function expectRefused(response: LightMyRequestResponse): void {
    expect(response.statusCode).toBe(429);
    expect(response.json().code).toBe('too_many_requests');
    expect(response.headers['retry-after']).toBe(String(SECONDS_TO_MIDNIGHT));
  }

  /** A limiter of its own on the app's database and clock, with the app's limits: it reads and writes the same counts. */
  const limiterOnAppDatabase = () =>
    createBookingLimiter({
      db: server.db,
      clock: server.clock,
      captcha: createCaptcha({ db: server.db, clock: server.clock, secret: () => Promise.resolve('test-secret') }),
      secret: () => Promise.resolve('test-secret'),
      limits: SMALL_LIMITS,
    });

  type Send = (address: string, headers?: Record<string, string>) => Promise<LightMyRequestResponse>;

  /**
   * The walk up one client's count that holds and bookings share: two free, then 403 storing
   * nothing until a solved answer (each good for one request only), then 429 past the second
   * threshold. Returns the client's address, now at its limit.
   */
  async function expectThresholds(send: Send): Promise<string> {
    const address = newClientAddress();
    expect((await send(address)).statusCode).toBe(201);
    expect((await send(address)).statusCode).toBe(201);
    const before = await stored();
    expectCaptchaRequired(await send(address));
    expect(await stored()).toEqual(before);
    const answer = await solvedCaptcha(server.app);
    expect((await send(address, { [CAPTCHA_HEADER]: answer })).statusCode).toBe(201);
    const afterSolved = await stored();
    expectCaptchaRequired(await send(address, { [CAPTCHA_HEADER]: answer }));
    expect(await stored()).toEqual(afterSolved);
    expect((await send(address, await captchaHeaders(server.app))).statusCode).toBe(201);
    const full = await stored();
    expectRefused(await send(address, await captchaHeaders(server.app)));
    expect(await stored()).toEqual(full);
    return address;
  }

  it('holds from one address: free up to the first threshold, then only with a solved answer, then 429 until midnight', async () => {
    await expectThresholds(holdFrom);
    // Another address is not affected.
    expect((await holdFrom(newClientAddress())).statusCode).toBe(201);
  });

  it('bookings from one address: 403 stores nothing, a solved answer books, a replayed one does not, 429 past the second threshold', async () => {
    const address = await expectThresholds((from, headers) => bookFrom(from, patient(), headers));
    const full = await stored();
    // Booking requests count with bookings.
    expectRefused(
      await requestBooking(server.app, { exams: ['mri-cardiac'], patient: patient() }, randomUUID(), {
        remoteAddress: address,
        headers: await captchaHeaders(server.app),
      }),
    );
    expect(await stored()).toEqual(full);
    // Both refusals are in the audit log, naming the client by its HMAC reference only.
    const audited = await server.db.query<{ reason: string; client: string }>(
      `select details->>'reason' as reason, details->>'client' as client from audit_log
        where action = 'authorization_failed' and details->>'route' = '/api/booking/appointments' order by id`,
    );
    expect(audited.map((row) => row.reason)).toEqual(expect.arrayContaining(['captcha_answer_refused', 'booking_limit_reached']));
    expect(JSON.stringify(audited)).not.toContain(address);
  });

  it('a malformed, forged or oversized X-Captcha header is 403 captcha_required when an answer is needed, never a 500', async () => {
    const address = newClientAddress();
    expect((await bookFrom(address)).statusCode).toBe(201);
    expect((await bookFrom(address)).statusCode).toBe(201);
    const before = await stored();
    const forged = Buffer.from(JSON.stringify({ challenge: { parameters: {} }, solution: { counter: 1, derivedKey: 'ab' } })).toString(
      'base64url',
    );
    for (const value of ['!!!', 'e30', forged, 'A'.repeat(10_000), Buffer.from('not json').toString('base64url')]) {
      expectCaptchaRequired(await bookFrom(address, patient(), { [CAPTCHA_HEADER]: value }));
    }
    expect(await stored()).toEqual(before);
  });

  it('one e-mail, and one phone number, are limited across different addresses', async () => {
    const email = `family-${randomUUID()}@example.com`;
    for (let index = 0; index < 3; index++) {
      expect((await bookFrom(newClientAddress(), patient({ email }))).statusCode).toBe(201);
    }
    expectCaptchaRequired(await bookFrom(newClientAddress(), patient({ email: email.toUpperCase() })));
    expect((await bookFrom(newClientAddress(), patient({ email }), await captchaHeaders(server.app))).statusCode).toBe(201);
    expect((await bookFrom(newClientAddress(), patient({ email }), await captchaHeaders(server.app))).statusCode).toBe(201);
    expectRefused(await bookFrom(newClientAddress(), patient({ email }), await captchaHeaders(server.app)));

    const contactNumber = '0498765432';
    for (let index = 0; index < 3; index++) {
      expect((await bookFrom(newClientAddress(), patient({ contactNumber }))).statusCode).toBe(201);
    }
    // The same number written without its leading zero is the same phone.
    expectCaptchaRequired(await bookFrom(newClientAddress(), patient({ contactNumber: '498765432' })));
  });

  it('past the mail cap a booking is stored and audited but queues no confirmation mail for that address', async () => {
    const email = `mail-${randomUUID()}@example.com`;
    const mailsTo = async (): Promise<number> =>
      (await server.db.query<{ count: number }>(`select count(*)::int as count from outbox_mail where recipient = $1`, [email]))[0]
        ?.count ?? -1;
    const capped = async (): Promise<number> => countRowsWhere(`action = 'booking_confirmation.capped'`);
    const countRowsWhere = async (where: string): Promise<number> =>
      (await server.db.query<{ count: number }>(`select count(*)::int as count from audit_log where ${where}`))[0]?.count ?? -1;
    const cappedBefore = await capped();
    for (let index = 0; index < 2; index++) {
      expect((await bookFrom(newClientAddress(), patient({ email }))).statusCode).toBe(201);
    }
    expect(await mailsTo()).toBe(2);
    const third = await bookFrom(newClientAddress(), patient({ email }));
    expect(third.statusCode).toBe(201);
    const rows = await server.db.query(`select 1 from appointment where booking_key = $1`, [
      third.json<{ bookingKey: string }>().bookingKey,
    ]);
    expect(rows).toHaveLength(1);
    expect(await mailsTo()).toBe(2);
    expect(await capped()).toBe(cappedBefore + 1);
  });

  it('counts are kept by HMAC only: no address, e-mail or phone number in clear', async () => {
    const rows = await server.db.query<{ kind: string; subject: string }>(`select kind, subject from booking_limit_counter`);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.subject).toMatch(/^[0-9a-f]{64}$/);
    const text = JSON.stringify(rows);
    expect(text).not.toContain('10.');
    expect(text).not.toContain('@');
    expect(text).not.toContain('0498765432');
  });

  it('an exempt device is never asked for an answer but is still refused past the second threshold; no request is exempt yet', async () => {
    const limiter = limiterOnAppDatabase();
    const kiosk = { ip: newClientAddress(), captcha: undefined, exempt: true };
    for (let index = 0; index < 4; index++) await limiter.admitHold(kiosk);
    await expect(limiter.admitHold(kiosk)).rejects.toMatchObject({ code: 'too_many_requests', statusCode: 429 });
    const visitor = { ip: newClientAddress(), captcha: undefined, exempt: false };
    for (let index = 0; index < 2; index++) await limiter.admitHold(visitor);
    await expect(limiter.admitHold(visitor)).rejects.toMatchObject({ code: 'captcha_required', statusCode: 403 });
    // No kiosk credential exists yet, so no request can be exempt (the other tests ask real requests for answers).
    expect(exemptFromCaptcha({ headers: {} } as FastifyRequest)).toBe(false);
  });

  it('the next day frees the counts, and the sweep deletes the ended day', async () => {
    const address = newClientAddress();
    for (let index = 0; index < 4; index++) {
      expect((await holdFrom(address, index < 2 ? {} : await captchaHeaders(server.app))).statusCode).toBe(201);
    }
    expectRefused(await holdFrom(address, await captchaHeaders(server.app)));
    const limiter = limiterOnAppDatabase();
    expect(await limiter.sweep()).toBe(0);
    server.clock.set(new Date(Date.parse(SEED_NOW) + SECONDS_TO_MIDNIGHT * 1000));
    try {
      expect((await holdFrom(address)).statusCode).toBe(201);
      expect((await bookFrom(address)).statusCode).toBe(201);
      expect(await limiter.sweep()).toBeGreaterThan(0);
      const left = await server.db.query<{ day: string }>(`select distinct day::text as day from booking_limit_counter`);
      expect(left).toEqual([{ day: '2026-03-11' }]);
    } finally {
      server.clock.set(SEED_NOW);
    }
  });
});
