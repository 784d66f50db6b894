import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bookingCodePayload, bookingKeyFromCode } from '@contract/booking-code';
import { IDENTITY_WINDOW_MS, PERSON_IDENTITY_LIMIT } from '../../../../src-server/modules/kiosks/identity';
import { backends } from '../../helpers/database';
import { cookieBrowser, type CookieBrowser } from '../../helpers/cookie-browser';
import { useStaffTestApp, type StaffBrowser } from '../staff-access/identity-kit';
import { addEnrolledKiosk, OLIVIA, resetKioskIdentityAttempts, startKioskTests } from './kiosk-kit';

// Identify by scanning (docs/rules/kiosk.md#identify-by-scanning) on a real database: the kiosk
// sends the booking key read from a scanned booking code with the date of birth the patient types.

const IDENTITY = '/api/kiosk/check-in/identity';

describe.each(backends())('kiosk identity by booking code on %s', (backend) => {
  const staffApp = useStaffTestApp({ backend });
  const { server } = staffApp;
  let itAdmin: StaffBrowser;
  let address = 60;

  async function enrolledKiosk(clinicSlug: string): Promise<CookieBrowser> {
    address += 1;
    return (await addEnrolledKiosk(server.app, itAdmin, { name: `${clinicSlug} lobby`, clinicSlug }, `198.51.100.${address}`)).browser;
  }

  async function attempts(): Promise<number> {
    const [row] = await server.db.query<{ count: number }>('select count(*)::int as count from kiosk_identity_attempt');
    return row?.count ?? -1;
  }

  beforeAll(async () => {
    itAdmin = await startKioskTests(staffApp);
  });
  beforeEach(() => resetKioskIdentityAttempts(server));

  it("finds today's booking from the key a scanned code carries and the right date of birth", async () => {
    const kiosk = await enrolledKiosk('parramatta');
    const bookingKey = bookingKeyFromCode(`${bookingCodePayload('https://portal.example.com', OLIVIA.bookingKey)}\r\n`);
    expect(bookingKey).toBe(OLIVIA.bookingKey);
    const found = await kiosk.request('POST', IDENTITY, { bookingKey, dateOfBirth: OLIVIA.dateOfBirth });
    expect(found.statusCode, found.body).toBe(200);
    expect(found.json()).toEqual({
      appointmentBookingKeys: [OLIVIA.bookingKey],
      samePatient: true,
      feedbackQuestionnaireAnswered: false,
      disabledReason: null,
    });
    expect(found.headers['cache-control']).toBe('no-store');
  });

  it("finds a booking just after the clinic's midnight from before it, but not one hours later", async () => {
    const kiosk = await enrolledKiosk('parramatta');
    // Parramatta is on Sydney time (UTC+11 in March): 23:30 there is 12:30 UTC.
    server.clock.set(new Date('2026-03-10T12:30:00.000Z'));
    const moveTo = (startsAt: string) =>
      server.db.query(
        `update appointment set during = tstzrange($1::timestamptz, $1::timestamptz + (upper(during) - lower(during))) where booking_key = $2`,
        [startsAt, OLIVIA.bookingKey],
      );
    const identify = () => kiosk.request('POST', IDENTITY, { bookingKey: OLIVIA.bookingKey, dateOfBirth: OLIVIA.dateOfBirth });
    try {
      await moveTo('2026-03-10T13:15:00.000Z'); // 00:15 tomorrow, 45 minutes away
      const soon = await identify();
      expect(soon.statusCode, soon.body).toBe(200);
      expect(soon.json<{ appointmentBookingKeys: string[] }>().appointmentBookingKeys).toEqual([OLIVIA.bookingKey]);
      await moveTo('2026-03-10T16:00:00.000Z'); // 03:00 tomorrow: not today's
      const later = await identify();
      expect(later.json<{ appointmentBookingKeys: string[] }>().appointmentBookingKeys ?? []).toEqual([]);
    } finally {
      await moveTo('2026-03-10T02:00:00.000Z');
    }
  });

  it('answers a wrong date of birth, and an unknown key, exactly as nothing found; each is counted', async () => {
    const kiosk = await enrolledKiosk('parramatta');
    const wrong = await kiosk.request('POST', IDENTITY, { bookingKey: OLIVIA.bookingKey, dateOfBirth: '1983-06-29' });
    const unknown = await kiosk.request('POST', IDENTITY, { bookingKey: 'AAAAAAAAAAAAAAAAAAAAAA', dateOfBirth: OLIVIA.dateOfBirth });
    const nobody = { appointmentBookingKeys: [], samePatient: true, feedbackQuestionnaireAnswered: true, disabledReason: null };
    expect(wrong.statusCode).toBe(200);
    expect(wrong.json()).toEqual(nobody);
    expect(unknown.body).toBe(wrong.body);
    expect(await attempts()).toBe(2);
    // Only an HMAC reaches the database, never the key.
    const rows = await server.db.query<{ person_hmac: string }>('select person_hmac from kiosk_identity_attempt');
    for (const row of rows) expect(row.person_hmac).toMatch(/^[0-9a-f]{64}$/);
  });

  it('limits dates of birth guessed for one code, at any kiosk, with Retry-After; the right one waits too', async () => {
    const here = await enrolledKiosk('parramatta');
    const there = await enrolledKiosk('parramatta');
    for (let day = 1; day <= PERSON_IDENTITY_LIMIT; day += 1) {
      const kiosk = day % 2 === 0 ? here : there;
      const guess = await kiosk.request('POST', IDENTITY, {
        bookingKey: OLIVIA.bookingKey,
        dateOfBirth: `1983-01-${String(day).padStart(2, '0')}`,
      });
      expect(guess.json()).toMatchObject({ appointmentBookingKeys: [] });
    }
    const refused = await here.request('POST', IDENTITY, { bookingKey: OLIVIA.bookingKey, dateOfBirth: OLIVIA.dateOfBirth });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ message: expect.stringContaining('these details') });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(IDENTITY_WINDOW_MS / 1000);
    // The refusal itself is not one more guess, and another person at the same kiosk still gets through.
    expect(await attempts()).toBe(PERSON_IDENTITY_LIMIT);
    expect((await here.request('POST', IDENTITY, { lastName: 'Arrival', dateOfBirth: OLIVIA.dateOfBirth })).statusCode).toBe(200);
    server.clock.advance(IDENTITY_WINDOW_MS + 1_000);
    const later = await here.request('POST', IDENTITY, { bookingKey: OLIVIA.bookingKey, dateOfBirth: OLIVIA.dateOfBirth });
    expect(later.json()).toMatchObject({ appointmentBookingKeys: [OLIVIA.bookingKey] });
  });

  it('counts code checks in the kiosk limit as well', async () => {
    const kiosk = await enrolledKiosk('parramatta');
    for (let index = 0; index < 30; index += 1) {
      const key = `Probe${String(index).padStart(2, '0')}AAAAAAAAAAAAAAAAA`;
      expect((await kiosk.request('POST', IDENTITY, { bookingKey: key, dateOfBirth: '1970-01-01' })).statusCode).toBe(200);
    }
    const probing = await kiosk.request('POST', IDENTITY, { bookingKey: OLIVIA.bookingKey, dateOfBirth: OLIVIA.dateOfBirth });
    expect(probing.statusCode).toBe(429);
    expect(probing.json()).toMatchObject({ message: expect.stringContaining('this kiosk') });
    expect(probing.headers['retry-after']).toBeDefined();
  });

  it("does not find another clinic's booking", async () => {
    const elsewhere = await enrolledKiosk('chatswood');
    const answer = await elsewhere.request('POST', IDENTITY, { bookingKey: OLIVIA.bookingKey, dateOfBirth: OLIVIA.dateOfBirth });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toMatchObject({ appointmentBookingKeys: [] });
  });

  it.each([
    [{ bookingKey: 'not a key!', dateOfBirth: OLIVIA.dateOfBirth }, 'body/bookingKey', 'not a booking code'],
    [
      { bookingKey: `https://portal.example.com/a/${OLIVIA.bookingKey}`, dateOfBirth: OLIVIA.dateOfBirth },
      'body/bookingKey',
      'not a booking code',
    ],
    [{ bookingKey: OLIVIA.bookingKey, lastName: 'Arrival', dateOfBirth: OLIVIA.dateOfBirth }, 'body/bookingKey', 'not both'],
    [{ dateOfBirth: OLIVIA.dateOfBirth }, 'body/lastName', 'not both'],
    [{ bookingKey: OLIVIA.bookingKey, dateOfBirth: '1983-02-30' }, 'body/dateOfBirth', 'date of birth'],
    [{ bookingKey: OLIVIA.bookingKey }, 'body/dateOfBirth', ''],
    [{ bookingKey: OLIVIA.bookingKey, dateOfBirth: OLIVIA.dateOfBirth, firstName: 'Olivia' }, 'body/', ''],
  ])('refuses %j with a 400 naming %s, and counts nothing', async (body, where, words) => {
    const kiosk = await enrolledKiosk('parramatta');
    const refused = await kiosk.request('POST', IDENTITY, body);
    expect(refused.statusCode, refused.body).toBe(400);
    const error = refused.json<{ code: string; message: string; details: Array<{ in: string; message: string }> }>();
    expect(error.code).toBe('validation_failed');
    expect(error.details.map((detail) => detail.in)).toContain(where);
    expect(error.details.map((detail) => detail.message).join(' ')).toContain(words);
    expect(await attempts()).toBe(0);
  });

  it('needs the kiosk token', async () => {
    const stranger = cookieBrowser(server.app, '__Host-portal_kiosk', '198.51.100.99');
    const refused = await stranger.request('POST', IDENTITY, { bookingKey: OLIVIA.bookingKey, dateOfBirth: OLIVIA.dateOfBirth });
    expect(refused.statusCode).toBe(401);
  });
});
