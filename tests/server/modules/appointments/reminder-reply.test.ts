import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createReminders } from '../../../../src-server/modules/appointments/reminders';
import { book, patient, slotsOn, sydney } from '../booking/booking-test-kit';
import { backends, SEED_NOW } from '../../helpers/database';
import { useTestApp } from '../../helpers/test-app';
import { SIGNING_KEY, testSignedLinks } from '../unsubscribe/unsubscribe-kit';

// Answering a reminder on a real database with an injected clock: the reminder mail's link shows
// the appointment and changes nothing until a button is pressed; "I will come" confirms, "I cannot
// come" cancels inside the online cut-off too and frees the time at once; both are idempotent; an
// altered, foreign or expired link is refused; after the start nothing more is taken.

const HOUR = 3_600_000;
export const SMS_TOKEN = 'sms-provider-inbound-token-0123456789abcdef';

describe.each(backends())('reminder replies by the mail link on %s', (backend) => {
  const server = useTestApp({
    backend,
    clock: SEED_NOW,
    env: { SIGNED_LINK_KEYS: SIGNING_KEY, SMS_INBOUND_TOKEN_SHA256: createHash('sha256').update(SMS_TOKEN).digest('hex') },
  });
  const links = () => Promise.resolve(testSignedLinks(() => server.clock.now()));
  const reminders = () => createReminders({ db: server.db, clock: server.clock, publicUrl: 'https://portal.example', sms: false, links });

  /** Books ct-chest at Newcastle; answers its key, address and start. */
  const bookAt = async (date: string, time: string) => {
    server.clock.set(SEED_NOW);
    const person = patient();
    const response = await book(server.app, {
      exams: ['ct-chest'],
      clinicSlug: 'newcastle',
      startsAt: sydney(date, time),
      patient: person,
    });
    expect(response.statusCode, response.body).toBe(201);
    return {
      key: response.json<{ bookingKey: string }>().bookingKey,
      email: person.email ?? '',
      start: new Date(sydney(date, time)).getTime(),
    };
  };

  /** The reminder mail's answer page link (path and query), after the 24-hour reminder went. */
  const remindedLink = async (booking: { email: string; start: number }): Promise<string> => {
    server.clock.set(new Date(booking.start - 24 * HOUR + 60_000));
    await reminders().sweep();
    const [mail] = await server.db.query<{ text_body: string; html_body: string }>(
      `select text_body, html_body from outbox_mail where recipient = $1 and kind = 'appointment_reminder'`,
      [booking.email],
    );
    expect(mail?.text_body).toContain('Will you come? Let us know with one tap:');
    // The day planned before arrival (docs/rules/day-plan.md#in-a-reminder): the arrival and the exam, the address.
    expect(mail?.text_body).toMatch(/Your day[\s\S]*: arrive at the clinic and check in[\s\S]*: your CT chest[\s\S]*Address: Newcastle/);
    expect(mail?.html_body).toContain('Yes, I will come');
    expect(mail?.html_body).toContain('I cannot come');
    const link = /https:\/\/portal\.example(\/appointment-reply\?token=[A-Za-z0-9._%-]+)&(amp;)?answer=confirm/.exec(mail?.html_body ?? '');
    expect(link, 'the mail links the answer page').not.toBeNull();
    return (link?.[1] ?? '').replace('/appointment-reply', '/api/appointment-reply');
  };
  const statusOf = async (key: string) =>
    (await server.db.query<{ status: string }>(`select status from appointment where booking_key = $1`, [key])).map((row) => row.status);
  const post = (url: string) => server.app.inject({ method: 'POST', url, payload: {} });
  const answerPath = (api: string, answer: 'confirm' | 'cancel') =>
    api.replace('/api/appointment-reply?', `/api/appointment-reply/${answer}?`);

  it('shows the appointment without changing it, confirms, then cancels inside the cut-off and frees the time', async () => {
    const booking = await bookAt('2026-03-18', '11:00');
    const api = await remindedLink(booking);

    // Opened (by the patient, or a mail scanner): it says what and when, and changes nothing.
    for (let opened = 0; opened < 2; opened += 1) {
      const view = await server.app.inject({ method: 'GET', url: api });
      expect(view.statusCode, view.body).toBe(200);
      expect(view.json()).toMatchObject({
        state: 'OPEN',
        canConfirm: true,
        canCancel: true,
        providerName: 'Harbour & Range Radiology',
        clinic: { name: 'Newcastle', timeZone: 'Australia/Sydney' },
        appointments: [{ examName: 'CT chest', startsAt: new Date(booking.start).toISOString() }],
        appointmentUrl: expect.stringMatching(new RegExp(`/appointments/${booking.key}$`)),
      });
    }
    expect(await statusOf(booking.key)).toEqual(['BOOKED']);

    // "I will come", twice (a double tap): confirmed once.
    for (let tapped = 0; tapped < 2; tapped += 1) {
      const confirmed = await post(answerPath(api, 'confirm'));
      expect(confirmed.statusCode, confirmed.body).toBe(200);
      expect(confirmed.json()).toMatchObject({ state: 'CONFIRMED', canConfirm: false, canCancel: true });
    }
    expect(await statusOf(booking.key)).toEqual(['CONFIRMED']);
    const changes = await server.db.query<{ action: string; details: { via?: string } }>(
      `select action, details from appointment_change where booking_key = $1 order by occurred_at`,
      [booking.key],
    );
    expect(changes).toEqual([{ action: 'CONFIRM', details: { via: 'reminder-email' } }]);

    // Inside the online cut-off (24 hours) the page's own cancel is refused; the reminder's answer is taken.
    const date = '2026-03-18';
    expect((await slotsOn(server.app, 'ct-chest', 'newcastle', date)).map((slot) => slot.localTime)).not.toContain('11:00');
    const cancelled = await post(answerPath(api, 'cancel'));
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json()).toMatchObject({ state: 'CANCELLED', canConfirm: false, canCancel: false });
    expect(await statusOf(booking.key)).toEqual(['CANCELED']);
    expect((await slotsOn(server.app, 'ct-chest', 'newcastle', date)).map((slot) => slot.localTime)).toContain('11:00');
    const mails = await server.db.query(`select 1 from outbox_mail where recipient = $1 and kind = 'appointment_cancelled'`, [
      booking.email,
    ]);
    expect(mails).toHaveLength(1);

    // Again: the same answer, nothing more; confirming a cancelled one says why not.
    expect((await post(answerPath(api, 'cancel'))).statusCode).toBe(200);
    const late = await post(answerPath(api, 'confirm'));
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({ code: 'reply_not_possible', details: { state: 'CANCELLED' } });
    expect(
      await server.db.query(`select 1 from outbox_mail where recipient = $1 and kind = 'appointment_cancelled'`, [booking.email]),
    ).toHaveLength(1);
  });

  it('refuses an altered, foreign or expired link, and takes nothing once the time has come', async () => {
    const booking = await bookAt('2026-03-19', '10:00');
    const api = await remindedLink(booking);
    const token = new URLSearchParams(api.slice(api.indexOf('?'))).get('token') ?? '';

    const altered = `/api/appointment-reply?token=${encodeURIComponent(`${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`)}`;
    const foreign = `/api/appointment-reply?token=${encodeURIComponent(
      testSignedLinks(() => server.clock.now()).sign({
        purpose: 'unsubscribe',
        audience: 'mail-recipient',
        subject: booking.key,
        ttlMs: HOUR,
      }),
    )}`;
    for (const url of [altered, foreign, '/api/appointment-reply?token=', '/api/appointment-reply?']) {
      const refused = await server.app.inject({ method: 'GET', url });
      expect(refused.statusCode, url).toBe(400);
      expect((await post(answerPath(url, 'cancel'))).statusCode, url).toBe(400);
    }
    expect((await server.app.inject({ method: 'GET', url: altered })).json()).toMatchObject({ code: 'appointment_reply_link_invalid' });

    // At the start: shown as started; neither answer is taken.
    server.clock.set(new Date(booking.start));
    expect((await server.app.inject({ method: 'GET', url: api })).json()).toMatchObject({
      state: 'STARTED',
      canConfirm: false,
      canCancel: false,
    });
    const tooLate = await post(answerPath(api, 'cancel'));
    expect(tooLate.statusCode).toBe(409);
    expect(tooLate.json<{ message: string }>().message).toContain('Please call the clinic on');
    expect(await statusOf(booking.key)).toEqual(['BOOKED']);

    // A day after the start the link has run out.
    server.clock.set(new Date(booking.start + 24 * HOUR + 60_000));
    expect((await server.app.inject({ method: 'GET', url: api })).statusCode).toBe(400);
  });
});
