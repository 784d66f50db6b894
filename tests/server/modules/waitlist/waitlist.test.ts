import { beforeAll, describe, expect, it } from 'vitest';
import { misfit } from '../../../../src-server/modules/waitlist/fit';
import type { CandidateRow } from '../../../../src-server/modules/waitlist/repository';
// app.waitlistOffers is declared there.
import type {} from '../../../../src-server/modules/waitlist/offers';
import { book, patient, slotsOn, sydney } from '../booking/booking-test-kit';
import { authenticate, client, setOtpRequired } from '../patient-access/sign-in-kit';
import { backends, SEED_NOW } from '../../helpers/database';
import { useTestApp } from '../../helpers/test-app';
import { SIGNING_KEY } from '../unsubscribe/unsubscribe-kit';
import { BOOKING_RECEIPT_COOKIE } from '../../../../src-server/modules/booking-access/public';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '../../../../src-server/platform/plugins/csrf-guard';

// The waiting list on a real database with an injected clock: a time given up is offered to the
// waiting patients it fits only (same clinic, later, in the order they joined), held meanwhile;
// the first to accept is moved there and the others are told; two accepting at once give one
// booking; an offer nobody takes goes to the next patients in turn.

const MINUTE = 60_000;

describe('who a freed time fits', () => {
  const candidate: CandidateRow = {
    bookingKey: 'k',
    startsAt: '2026-03-25T00:00:00.000Z',
    examSlugs: ['ct-chest'],
    fastingHours: null,
    medicationStopHours: null,
    referralDate: null,
    referralValidityMonths: 12,
  };
  const freed = { startsAt: '2026-03-18T00:00:00.000Z', timeZone: 'Australia/Sydney' };
  const now = new Date('2026-03-17T18:00:00.000Z');

  it('leaves time to prepare: fasting or a medication stop must not have begun before the offer ends', () => {
    expect(misfit(candidate, freed, now, 30)).toBeNull();
    expect(misfit({ ...candidate, fastingHours: 4 }, freed, now, 30)).toBeNull();
    expect(misfit({ ...candidate, fastingHours: 6 }, freed, now, 30)).toBe('preparation');
    expect(misfit({ ...candidate, medicationStopHours: 48 }, freed, now, 30)).toBe('preparation');
  });

  it('needs a referral valid on the freed date', () => {
    expect(misfit({ ...candidate, referralDate: '2026-03-10' }, freed, now, 30)).toBeNull();
    expect(misfit({ ...candidate, referralDate: '2026-03-20' }, freed, now, 30)).toBe('referral');
    expect(misfit({ ...candidate, referralDate: '2025-03-01' }, freed, now, 30)).toBe('referral');
  });
});

describe.each(backends())('waitlist on %s', (backend) => {
  const server = useTestApp({
    backend,
    clock: SEED_NOW,
    // Offers go by SMS too, through the SMS outbox (no worker runs here, nothing is sent).
    env: { SIGNED_LINK_KEYS: SIGNING_KEY, SMS_PROVIDER_URL: 'http://127.0.0.1:9/sms', SMS_PROVIDER_API_KEY: 'test-key' },
  });
  beforeAll(async () => {
    await setOtpRequired(server.db, false);
  });

  /** Books ct-chest at a clinic (Sydney time); answers its key, the patient's address and the first row's id. */
  const bookAt = async (date: string, time: string, clinicSlug = 'newcastle') => {
    server.clock.set(SEED_NOW);
    const person = patient();
    const response = await book(server.app, { exams: ['ct-chest'], clinicSlug, startsAt: sydney(date, time), patient: person });
    expect(response.statusCode, response.body).toBe(201);
    const key = response.json<{ bookingKey: string }>().bookingKey;
    const [row] = await server.db.query<{ id: string }>(`select id::text as id from appointment where booking_key = $1`, [key]);
    const receipt =
      ([response.headers['set-cookie'] ?? []].flat().find((value) => value.startsWith(`${BOOKING_RECEIPT_COOKIE}=`)) ?? '').split(';')[0] ??
      '';
    return { key, email: person.email ?? '', phone: person.contactNumber, id: row?.id ?? '', dateOfBirth: person.dateOfBirth, receipt };
  };
  /** The booking's patient signs in and asks for an earlier time. */
  const join = async (booking: { key: string; dateOfBirth: string }) => {
    // One after the other, as patients join: the order of the list.
    server.clock.advance(1000);
    const browser = client(server.app);
    expect((await authenticate(browser, { bookingKey: booking.key, dateOfBirth: booking.dateOfBirth })).statusCode).toBe(200);
    const joined = await browser.request('PUT', `/api/appointments/${booking.key}/waitlist`);
    expect(joined.statusCode, joined.body).toBe(200);
    expect(joined.json()).toMatchObject({ waiting: true, canWait: true });
    return browser;
  };
  const smsTo = async (phone: string) =>
    (
      await server.db.query<{ text_body: string }>(`select text_body from outbox_sms where recipient = $1 and kind = 'waitlist_offer'`, [
        phone,
      ])
    ).map((row) => row.text_body);
  const mailsTo = (email: string, kind: string) =>
    server.db.query<{ html_body: string; subject: string }>(
      `select html_body, subject from outbox_mail where recipient = $1 and kind = $2`,
      [email, kind],
    );
  /** The API path of the offer mail's link. */
  const offerLink = async (email: string): Promise<string> => {
    const [mail] = await mailsTo(email, 'waitlist_offer');
    const link = /https?:\/\/[^/"]+(\/waitlist-offer\?token=[A-Za-z0-9._%-]+)/.exec(mail?.html_body ?? '')?.[1];
    expect(link, `an offer to ${email}`).toBeDefined();
    return (link ?? '').replace('/waitlist-offer?', '/api/waitlist-offer/accept?');
  };
  const startsOf = async (key: string) =>
    (
      await server.db.query<{ start: string }>(
        `select to_char(lower(during) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as start from appointment
          where booking_key = $1 and status in ('BOOKED', 'CONFIRMED')`,
        [key],
      )
    ).map((row) => row.start);
  /** Each test starts with nobody waiting and no time to offer (the earlier tests' freed times closed). */
  const freshWaitlist = async () => {
    await server.db.query(`update freed_time set closed_at = now() where closed_at is null`);
    await server.db.query(`update waitlist_entry set status = 'left' where status = 'waiting'`);
  };
  const sweepAt = async (at: number) => {
    server.clock.set(new Date(at));
    return server.app.waitlistOffers.sweep();
  };

  it('offers a freed time to the waiting patients it fits only; the first to accept moves there and the other is told', async () => {
    await freshWaitlist();
    const freed = await bookAt('2026-03-18', '11:00');
    const first = await bookAt('2026-03-24', '11:00');
    const second = await bookAt('2026-03-25', '11:00');
    const elsewhere = await bookAt('2026-03-26', '11:00', 'gosford');
    const sooner = await bookAt('2026-03-17', '14:00');
    const notWaiting = await bookAt('2026-03-27', '11:00');
    for (const booking of [first, second, elsewhere, sooner]) await join(booking);

    const now = new Date(sydney('2026-03-16', '09:00')).getTime();
    server.clock.set(new Date(now));
    await server.app.cancelByProvider(freed.id, { actor: 'test', note: null });
    expect(await sweepAt(now)).toBe(2);
    for (const booking of [elsewhere, sooner, notWaiting]) expect(await mailsTo(booking.email, 'waitlist_offer'), booking.key).toEqual([]);
    expect((await mailsTo(first.email, 'waitlist_offer'))[0]?.subject).toMatch(/An earlier time is free: .*18 March 2026/);
    // And by SMS, with the same link (09:00 is outside the quiet hours).
    const [sms] = await smsTo(first.phone);
    expect(sms).toMatch(
      /: an earlier time is free for your CT chest at Newcastle: Wed, 18 Mar, 11:00\s?am\. Held for you until 9:30\s?am\. To take it: /,
    );
    expect(sms).toContain((await offerLink(first.email)).replace('/api/waitlist-offer/accept?', '/waitlist-offer?'));
    expect(await smsTo(notWaiting.phone)).toEqual([]);
    // Held for the offer: nobody else can book it meanwhile.
    expect((await slotsOn(server.app, 'ct-chest', 'newcastle', '2026-03-18')).map((slot) => slot.localTime)).not.toContain('11:00');
    expect(await sweepAt(now + MINUTE)).toBe(0);

    const view = await server.app.inject({ method: 'GET', url: (await offerLink(first.email)).replace('/accept?', '?') });
    expect(view.json()).toMatchObject({
      outcome: 'offered',
      offered: { startsAt: sydney('2026-03-18', '11:00'), clinicName: 'Newcastle' },
    });

    const accepted = await server.app.inject({ method: 'POST', url: await offerLink(first.email), payload: {} });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toMatchObject({ outcome: 'accepted', current: { startsAt: sydney('2026-03-18', '11:00') } });
    expect(await startsOf(first.key)).toEqual([sydney('2026-03-18', '11:00')]);
    expect((await server.app.inject({ method: 'POST', url: await offerLink(first.email), payload: {} })).statusCode).toBe(200);

    const late = await server.app.inject({ method: 'POST', url: await offerLink(second.email), payload: {} });
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({ code: 'waitlist_offer_closed', details: { outcome: 'taken' } });
    expect(await startsOf(second.key)).toEqual([sydney('2026-03-25', '11:00')]);
    expect(await mailsTo(second.email, 'waitlist_taken')).toHaveLength(1);
    const entries = await server.db.query<{ booking_key: string; status: string }>(
      `select booking_key, status from waitlist_entry where booking_key = any($1::text[]) order by status`,
      [[first.key, second.key]],
    );
    expect(entries).toEqual([
      { booking_key: first.key, status: 'moved' },
      { booking_key: second.key, status: 'waiting' },
    ]);

    // The first patient's old time is freed in turn, and goes to the one still waiting: the second.
    expect(await sweepAt(now + 2 * MINUTE)).toBe(1);
    expect(await mailsTo(second.email, 'waitlist_offer')).toHaveLength(2);
  });

  it('offers a time at another clinic of the region to a booking that chose the region, and moves it there', async () => {
    await freshWaitlist();
    const freed = await bookAt('2026-03-23', '10:00');
    const regionWide = await bookAt('2026-03-31', '11:00', 'gosford');
    const browser = await join(regionWide);
    const chose = await browser.request('PUT', `/api/appointments/${regionWide.key}/waitlist`, { clinics: 'region' });
    expect(chose.json()).toMatchObject({ waiting: true, clinics: 'region', clinicName: 'Gosford', regionName: expect.any(String) });
    expect((await browser.request('PUT', `/api/appointments/${regionWide.key}/waitlist`, { clinics: 'anywhere' })).statusCode).toBe(400);

    const now = new Date(sydney('2026-03-16', '12:00')).getTime();
    server.clock.set(new Date(now));
    await server.app.cancelByProvider(freed.id, { actor: 'test', note: null });
    expect(await sweepAt(now)).toBe(1);
    const accepted = await server.app.inject({ method: 'POST', url: await offerLink(regionWide.email), payload: {} });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toMatchObject({ outcome: 'accepted', offered: { clinicName: 'Newcastle' } });
    const [moved] = await server.db.query<{ slug: string }>(
      `select c.slug from appointment a join clinic c on c.id = a.clinic_id where a.booking_key = $1 and a.status = 'BOOKED'`,
      [regionWide.key],
    );
    expect(moved?.slug).toBe('newcastle');
  });

  it('lets the browser that just booked join from its confirmation, and nobody else without a session', async () => {
    const booking = await bookAt('2026-03-31', '09:00');
    const put = (headers: Record<string, string>) =>
      server.app.inject({
        method: 'PUT',
        url: `/api/appointments/${booking.key}/waitlist`,
        headers: { [CSRF_HEADER]: CSRF_HEADER_VALUE, ...headers },
      });
    expect((await put({})).statusCode).toBe(401);
    const joined = await put({ cookie: booking.receipt });
    expect(joined.statusCode, joined.body).toBe(200);
    expect(joined.json()).toMatchObject({ waiting: true });
    const left = await server.app.inject({
      method: 'DELETE',
      url: `/api/appointments/${booking.key}/waitlist`,
      headers: { [CSRF_HEADER]: CSRF_HEADER_VALUE, cookie: booking.receipt },
    });
    expect(left.json()).toMatchObject({ waiting: false, canWait: true });
  });

  it('gives one booking when two accept at once', async () => {
    await freshWaitlist();
    const freed = await bookAt('2026-03-19', '11:00');
    const one = await bookAt('2026-03-27', '13:00');
    const other = await bookAt('2026-03-27', '14:00');
    await join(one);
    await join(other);
    const now = new Date(sydney('2026-03-16', '10:00')).getTime();
    server.clock.set(new Date(now));
    await server.app.cancelByProvider(freed.id, { actor: 'test', note: null });
    expect(await sweepAt(now)).toBe(2);

    const answers = await Promise.all(
      [one, other].map(async (booking) => server.app.inject({ method: 'POST', url: await offerLink(booking.email), payload: {} })),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    const atTheTime = await server.db.query(
      `select 1 from appointment where clinic_id = (select id from clinic where slug = 'newcastle')
          and lower(during) = $1 and status in ('BOOKED', 'CONFIRMED', 'HELD')`,
      [sydney('2026-03-19', '11:00')],
    );
    expect(atTheTime).toHaveLength(1);
  });

  it('made in the quiet hours, an offer holds the time until its minutes after them, and then passes on', async () => {
    await freshWaitlist();
    await server.db.query(`update waitlist_settings set batch_size = 1, offer_minutes = 30`);
    const freed = await bookAt('2026-03-20', '14:00');
    const waiting = [await bookAt('2026-03-30', '14:00'), await bookAt('2026-03-30', '15:00')];
    for (const booking of waiting) await join(booking);
    const late = new Date(sydney('2026-03-16', '22:30')).getTime();
    server.clock.set(new Date(late));
    await server.app.cancelByProvider(freed.id, { actor: 'test', note: null });
    // Mailed at once, held until 08:30 (the demo's quiet hours end at 08:00).
    expect(await sweepAt(late)).toBe(1);
    const view = await server.app.inject({ method: 'GET', url: (await offerLink(waiting[0]?.email ?? '')).replace('/accept?', '?') });
    expect(view.json()).toMatchObject({ outcome: 'offered', expiresAt: sydney('2026-03-17', '08:30') });
    // The mail names the day the hold ends, as it is not the day it came.
    expect((await mailsTo(waiting[0]?.email ?? '', 'waitlist_offer'))[0]?.html_body).toMatch(/until Tuesday 17 March 2026 at 8:30\W+am/);
    // No SMS at night: it would wake them.
    expect(await smsTo(waiting[0]?.phone ?? '')).toEqual([]);
    expect(await sweepAt(new Date(sydney('2026-03-17', '08:29')).getTime())).toBe(0);
    expect(await mailsTo(waiting[1]?.email ?? '', 'waitlist_offer')).toEqual([]);
    expect(await sweepAt(new Date(sydney('2026-03-17', '08:31')).getTime())).toBe(1);
    expect(await mailsTo(waiting[1]?.email ?? '', 'waitlist_offer')).toHaveLength(1);
    await server.db.query(`update waitlist_settings set batch_size = 3`);
  });

  it('offers in turn: an offer nobody takes in time, or one declined, goes to the next patient', async () => {
    await freshWaitlist();
    await server.db.query(`update waitlist_settings set batch_size = 1, offer_minutes = 30`);
    const freed = await bookAt('2026-03-20', '11:00');
    const waiting = [await bookAt('2026-03-30', '09:00'), await bookAt('2026-03-30', '10:00'), await bookAt('2026-03-30', '11:00')];
    for (const booking of waiting) await join(booking);
    const now = new Date(sydney('2026-03-16', '11:00')).getTime();
    server.clock.set(new Date(now));
    await server.app.cancelByProvider(freed.id, { actor: 'test', note: null });

    expect(await sweepAt(now)).toBe(1);
    const offeredTo = async () => Promise.all(waiting.map(async (booking) => (await mailsTo(booking.email, 'waitlist_offer')).length));
    expect(await offeredTo()).toEqual([1, 0, 0]);
    // Not answered in 30 minutes: it expires and the next patient is offered it.
    expect(await sweepAt(now + 20 * MINUTE)).toBe(0);
    expect(await sweepAt(now + 31 * MINUTE)).toBe(1);
    expect(await offeredTo()).toEqual([1, 1, 0]);
    const expired = await server.app.inject({ method: 'POST', url: await offerLink(waiting[0]?.email ?? ''), payload: {} });
    expect(expired.json()).toMatchObject({ details: { outcome: 'expired' } });

    // Declined: the next sweep offers it to the third.
    const decline = (await offerLink(waiting[1]?.email ?? '')).replace('/accept?', '/decline?');
    expect((await server.app.inject({ method: 'POST', url: decline, payload: {} })).json()).toMatchObject({ outcome: 'declined' });
    expect(await sweepAt(now + 32 * MINUTE)).toBe(1);
    expect(await offeredTo()).toEqual([1, 1, 1]);
    await server.db.query(`update waitlist_settings set batch_size = 3`);
  });
});
