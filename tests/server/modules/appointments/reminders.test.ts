import { describe, expect, it } from 'vitest';
import { inQuietHours, quietHoursEnd } from '../../../../src-server/modules/appointments/quiet-hours';
import { createReminders } from '../../../../src-server/modules/appointments/reminders';
import { book, patient, sydney } from '../booking/booking-test-kit';
import { backends, SEED_NOW } from '../../helpers/database';
import { useTestApp } from '../../helpers/test-app';

// Reminders before an appointment on a real database with an injected clock: each of the
// provider's times once (across sweeps, restarts and two servers at once), none for a cancelled
// booking, none in the clinic's quiet hours, only the nearest when several are due at once, and
// none for a time that had passed when the booking was made.

const HOUR = 3_600_000;

describe('quiet hours', () => {
  it('span midnight or not, in the clinic’s local time', () => {
    const night = { quietStart: '21:00', quietEnd: '08:00' };
    // 2026-03-18 is AEDT (UTC+11): 10:30 UTC is 21:30 in Sydney.
    expect(inQuietHours(new Date('2026-03-18T10:30:00Z'), 'Australia/Sydney', night)).toBe(true);
    expect(inQuietHours(new Date('2026-03-18T20:59:00Z'), 'Australia/Sydney', night)).toBe(true);
    expect(inQuietHours(new Date('2026-03-18T21:00:00Z'), 'Australia/Sydney', night)).toBe(false);
    expect(inQuietHours(new Date('2026-03-18T10:30:00Z'), 'Australia/Perth', night)).toBe(false);
    expect(inQuietHours(new Date('2026-03-18T01:00:00Z'), 'Australia/Sydney', { quietStart: '12:00', quietEnd: '13:00' })).toBe(true);
    expect(inQuietHours(new Date('2026-03-18T01:00:00Z'), 'Australia/Sydney', { quietStart: '12:00', quietEnd: '12:00' })).toBe(false);
  });

  it('end the next morning from the evening, the same morning after midnight, and not at all outside them', () => {
    const night = { quietStart: '21:00', quietEnd: '08:00' };
    const sydney = 'Australia/Sydney';
    // 21:30 on the 18th and 02:00 on the 19th (Sydney) both end at 08:00 on the 19th (21:00 UTC on the 18th).
    expect(quietHoursEnd(new Date('2026-03-18T10:30:00Z'), sydney, night)?.toISOString()).toBe('2026-03-18T21:00:00.000Z');
    expect(quietHoursEnd(new Date('2026-03-18T15:00:00Z'), sydney, night)?.toISOString()).toBe('2026-03-18T21:00:00.000Z');
    expect(quietHoursEnd(new Date('2026-03-18T21:00:00Z'), sydney, night)).toBeNull();
    // The night daylight saving ends (5 April 2026, 03:00 AEDT becomes 02:00 AEST): 08:00 is then UTC+10.
    expect(quietHoursEnd(new Date('2026-04-04T12:00:00Z'), sydney, night)?.toISOString()).toBe('2026-04-04T22:00:00.000Z');
  });
});

describe.each(backends())('reminders on %s', (backend) => {
  const server = useTestApp({ backend, clock: SEED_NOW });
  const reminders = () => createReminders({ db: server.db, clock: server.clock, publicUrl: 'https://portal.example', sms: true });
  const smsTo = (phone: string) =>
    server.db.query<{ text_body: string }>(
      `select text_body from outbox_sms where recipient = $1 and kind = 'appointment_reminder' order by id`,
      [phone.replace(/[\s().-]/g, '')],
    );
  const mailsTo = (email: string) =>
    server.db.query<{ subject: string; text_body: string }>(
      `select subject, text_body from outbox_mail where recipient = $1 and kind = 'appointment_reminder' order by id`,
      [email],
    );

  /** Books ct-chest at Newcastle on a date and local time; answers its key and the patient's address. */
  const bookAt = async (date: string, time: string) => {
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
      phone: person.contactNumber,
      start: new Date(sydney(date, time)).getTime(),
    };
  };

  it('mails each reminder once at its time, across sweeps, a restart and two servers at once', async () => {
    server.clock.set(SEED_NOW);
    const booking = await bookAt('2026-03-18', '11:00');
    server.clock.set(new Date(booking.start - 72 * HOUR - 60_000));
    expect(await reminders().sweep()).toBe(0);
    server.clock.set(new Date(booking.start - 72 * HOUR + 60_000));
    const [first, second] = await Promise.all([reminders().sweep(), reminders().sweep()]);
    expect((first ?? 0) + (second ?? 0)).toBe(1);
    expect(await reminders().sweep()).toBe(0);
    const mails = await mailsTo(booking.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toMatch(/Reminder of your appointment on .*18 March 2026/);
    expect(mails[0]?.text_body).toContain(`https://portal.example/appointments/${booking.key}`);
    expect(mails[0]?.text_body).toContain('Newcastle');
    const texts = await smsTo(booking.phone);
    expect(texts).toHaveLength(1);
    expect(texts[0]?.text_body).toBe(
      `Harbour & Range Radiology: reminder of your CT chest at Newcastle, Wed, 18 Mar, 11:00 am. To change or cancel: https://portal.example/appointments/${booking.key}`,
    );

    // 24 hours before: the second reminder, once.
    server.clock.set(new Date(booking.start - 24 * HOUR + 60_000));
    expect(await reminders().sweep()).toBeGreaterThanOrEqual(1);
    expect(await reminders().sweep()).toBe(0);
    expect(await mailsTo(booking.email)).toHaveLength(2);
    expect(await smsTo(booking.phone)).toHaveLength(2);
  });

  it('sends nothing for a cancelled booking or in the quiet hours, and only the nearest when several are due', async () => {
    server.clock.set(SEED_NOW);
    const cancelled = await bookAt('2026-03-19', '09:00');
    const late = await bookAt('2026-03-19', '09:30');
    const [row] = await server.db.query<{ id: string }>(`select id::text as id from appointment where booking_key = $1`, [cancelled.key]);
    await server.app.cancelByProvider(row?.id ?? '', { actor: 'test', note: null });

    // The server was down from before the 72-hour time until 20 hours before: only the 24-hour reminder goes.
    server.clock.set(new Date(late.start - 20 * HOUR)); // 13:30 in Sydney
    await server.db.query(`update reminder_settings set quiet_start = '13:00', quiet_end = '14:00'`);
    expect(await reminders().sweep()).toBe(0);
    await server.db.query(`update reminder_settings set quiet_start = '21:00', quiet_end = '08:00'`);
    expect(await reminders().sweep()).toBeGreaterThanOrEqual(1);
    expect(await mailsTo(late.email)).toHaveLength(1);
    const rows = await server.db.query<{ lead_hours: number; channel: string; outcome: string }>(
      `select lead_hours, channel, outcome from appointment_reminder where booking_key = $1 order by lead_hours, channel`,
      [late.key],
    );
    expect(rows).toEqual([
      { lead_hours: 24, channel: 'email', outcome: 'sent' },
      { lead_hours: 24, channel: 'sms', outcome: 'sent' },
    ]);
    // And the 72-hour one never goes afterwards.
    expect(await reminders().sweep()).toBe(0);
    expect(await mailsTo(late.email)).toHaveLength(1);
    expect(await mailsTo(cancelled.email)).toEqual([]);
    expect(await smsTo(late.phone)).toHaveLength(1);
    expect(await smsTo(cancelled.phone)).toEqual([]);
  });

  it('sends no reminder whose time had passed when the booking was made, but the nearer one', async () => {
    const start = new Date(sydney('2026-03-20', '10:00')).getTime();
    // Booked 30 hours before: after the 72-hour time, before the 24-hour one.
    server.clock.set(new Date(start - 30 * HOUR));
    const booking = await bookAt('2026-03-20', '10:00');
    expect(await reminders().sweep()).toBe(0);
    server.clock.set(new Date(start - 24 * HOUR + 60_000));
    expect(await reminders().sweep()).toBeGreaterThanOrEqual(1);
    expect(await mailsTo(booking.email)).toHaveLength(1);
  });
});
