import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  STAFF_APPOINTMENTS_PATH,
  STAFF_REMINDERS_PATH,
  type StaffAppointment,
  type StaffAppointmentList,
} from '@contract/api/staff-appointments';
import { createReminders } from '../../../../src-server/modules/appointments/reminders';
import { REPLY_LINK, replyLinkTtlMs } from '../../../../src-server/modules/appointments/reminder-reply';
import { book, newClientAddress, patient, slotsOn, sydney } from '../booking/booking-test-kit';
import { backends, SEED_NOW } from '../../helpers/database';
import { client, LIAM, signInWithCode } from '../patient-access/sign-in-kit';
import { KIOSK_ADMIN_CLAIMS, REFERRER_CLAIMS, STAFF_CLAIMS, ADMIN_CLAIMS, useStaffTestApp } from '../staff-access/identity-kit';
import { SIGNING_KEY, testSignedLinks } from '../unsubscribe/unsubscribe-kit';

// The front desk's confirmation list on a real database with an injected clock: bookings made
// through the booking API, reminded by the real sweep, answered through the reminder mail's link
// and by SMS reply, and one confirmed on the appointment page; the list shows each answer in time
// order, keeps the cancelled ones, reads the clinic's own day, and is for staff only.

const SMS_TOKEN = 'sms-provider-inbound-token-0123456789abcdef';
const DAY = '2026-03-18';

describe.each(backends())('the front desk confirmation list on %s', (backend) => {
  const { server, signedIn } = useStaffTestApp({
    backend,
    clock: SEED_NOW,
    staffAddress: newClientAddress,
    env: {
      SIGNED_LINK_KEYS: SIGNING_KEY,
      SMS_INBOUND_TOKEN_SHA256: createHash('sha256').update(SMS_TOKEN).digest('hex'),
      // SMS reminders and answers are queued in the SMS outbox; no worker sends them here.
      SMS_PROVIDER_URL: 'http://127.0.0.1:9/sms',
      SMS_PROVIDER_API_KEY: 'test-key',
    },
  });
  const links = () => Promise.resolve(testSignedLinks(() => server.clock.now()));
  const reminders = () =>
    createReminders({
      db: server.db,
      clock: server.clock,
      publicUrl: 'https://portal.example',
      sms: true,
      smsReplies: true,
      links,
    });

  /** Books ct-chest at a clinic at the first free time from `notBefore` (the clinic's wall clock) on DAY. */
  const bookFrom = async (clinic: string, notBefore: string, lastName: string, phone: string) => {
    server.clock.set(SEED_NOW);
    const slot = (await slotsOn(server.app, 'ct-chest', clinic, DAY)).find((candidate) => candidate.localTime >= notBefore);
    expect(slot, `a free time at ${clinic} from ${notBefore}`).toBeDefined();
    const response = await book(server.app, {
      exams: ['ct-chest'],
      clinicSlug: clinic,
      startsAt: slot?.startsAt,
      patient: patient({ firstName: 'Desk', lastName, contactNumber: phone }),
    });
    expect(response.statusCode, response.body).toBe(201);
    return { key: response.json<{ bookingKey: string }>().bookingKey, startsAt: new Date(slot?.startsAt ?? 0), phone };
  };
  const replyLink = (booking: { key: string; startsAt: Date }, answer: 'confirm' | 'cancel') => {
    const token = testSignedLinks(() => server.clock.now()).sign({
      ...REPLY_LINK,
      subject: booking.key,
      ttlMs: replyLinkTtlMs(booking.startsAt, server.clock.now()),
    });
    return server.app.inject({ method: 'POST', url: `/api/appointment-reply/${answer}?token=${encodeURIComponent(token)}`, payload: {} });
  };
  let messages = 0;
  const smsReply = (from: string, text: string) =>
    server.app.inject({
      method: 'POST',
      url: '/api/sms/inbound',
      headers: { authorization: `Bearer ${SMS_TOKEN}` },
      payload: { messageId: `SM-desk-${(messages += 1)}`, from, text },
    });
  const listOf = async (query: string): Promise<StaffAppointmentList> => {
    const staff = await signedIn(STAFF_CLAIMS);
    const response = await staff.request('GET', `${STAFF_APPOINTMENTS_PATH}${query}`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    return response.json<StaffAppointmentList>();
  };
  const ours = (items: StaffAppointment[]) => items.filter((item) => item.firstName === 'Desk');

  it('lists the day in time order with each reminder answer, the cancelled ones kept, another clinic left out', async () => {
    const awaiting = await bookFrom('newcastle', '08:00', 'Awaiting', '0412000301');
    const mailYes = await bookFrom('newcastle', '10:00', 'Mailyes', '0412000302');
    const mailNo = await bookFrom('newcastle', '11:00', 'Mailno', '0412000303');
    const smsYes = await bookFrom('newcastle', '12:00', 'Smsyes', '0412000304');
    const smsNo = await bookFrom('newcastle', '13:00', 'Smsno', '0412000305');
    await bookFrom('parramatta', '09:00', 'Elsewhere', '0412000306');

    // The day before, after 1 pm: every booking's 24-hour reminder is due, by e-mail and SMS.
    server.clock.set(sydney('2026-03-17', '13:30'));
    await reminders().sweep();
    expect((await replyLink(mailYes, 'confirm')).statusCode).toBe(200);
    expect((await replyLink(mailNo, 'cancel')).statusCode).toBe(200);
    expect((await smsReply('+61412000304', 'Yes')).json()).toEqual({ outcome: 'confirmed' });
    expect((await smsReply('+61412000305', 'No')).json()).toEqual({ outcome: 'cancelled' });

    const list = await listOf(`?clinic=newcastle&date=${DAY}`);
    expect(list.clinic).toEqual({ slug: 'newcastle', name: 'Newcastle', timeZone: 'Australia/Sydney' });
    expect(list.date).toBe(DAY);
    expect(list.clinics.map((clinic) => clinic.slug)).toContain('parramatta');
    const starts = list.items.map((item) => item.startsAt);
    expect(starts, 'in time order').toEqual([...starts].sort());
    expect(
      list.items.some((item) => item.lastName === 'Elsewhere'),
      'another clinic is not listed',
    ).toBe(false);

    const local = (booking: { startsAt: Date }) =>
      new Intl.DateTimeFormat('en-GB', { timeZone: 'Australia/Sydney', hour: '2-digit', minute: '2-digit' }).format(booking.startsAt);
    expect(
      ours(list.items).map(({ localTime, lastName, phone, status, live, answer, reminders: sent }) => ({
        localTime,
        lastName,
        phone,
        status,
        live,
        answer,
        sent,
      })),
    ).toEqual([
      {
        localTime: local(awaiting),
        lastName: 'Awaiting',
        phone: awaiting.phone,
        status: 'BOOKED',
        live: true,
        answer: 'none',
        sent: ['email', 'sms'],
      },
      {
        localTime: local(mailYes),
        lastName: 'Mailyes',
        phone: mailYes.phone,
        status: 'CONFIRMED',
        live: true,
        answer: 'confirmedByEmail',
        sent: ['email', 'sms'],
      },
      {
        localTime: local(mailNo),
        lastName: 'Mailno',
        phone: mailNo.phone,
        status: 'CANCELED',
        live: false,
        answer: 'cancelledByEmail',
        sent: ['email', 'sms'],
      },
      {
        localTime: local(smsYes),
        lastName: 'Smsyes',
        phone: smsYes.phone,
        status: 'CONFIRMED',
        live: true,
        answer: 'confirmedBySms',
        sent: ['email', 'sms'],
      },
      {
        localTime: local(smsNo),
        lastName: 'Smsno',
        phone: smsNo.phone,
        status: 'CANCELED',
        live: false,
        answer: 'cancelledBySms',
        sent: ['email', 'sms'],
      },
    ]);
    const confirmed = ours(list.items).find((item) => item.lastName === 'Mailyes');
    expect(confirmed?.answeredAt).toBe(new Date(sydney('2026-03-17', '13:30')).toISOString());
    expect(ours(list.items)[0]?.answeredAt).toBeNull();

    // The earliest one starts on the 17th in UTC: the day is the clinic's, midnight to midnight.
    expect(awaiting.startsAt.toISOString().slice(0, 10)).toBe('2026-03-17');
    const dayBefore = await listOf('?clinic=newcastle&date=2026-03-17');
    expect(ours(dayBefore.items)).toEqual([]);
    expect(ours((await listOf('?date=2026-03-19&clinic=newcastle')).items)).toEqual([]);
  });

  it('sends a reminder again at the desk’s asking: mail and SMS now, its SMS reply matched, audited, not once it has started', async () => {
    const booking = await bookFrom('newcastle', '16:00', 'Resend', '0412555123');
    server.clock.set(new Date(booking.startsAt.getTime() - 50 * 3_600_000));
    const [row] = await server.db.query<{ id: string }>(`select id::text as id from appointment where booking_key = $1`, [booking.key]);
    const staff = await signedIn(STAFF_CLAIMS);
    const sent = await staff.request('POST', `${STAFF_REMINDERS_PATH}/${row?.id}`, {});
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toEqual({ email: true, sms: true });
    const mails = await server.db.query<{ text_body: string }>(
      `select m.text_body from outbox_mail m join appointment a on a.booking_key = $1 join patient p on p.id = a.patient_id
        where m.recipient = p.email and m.kind = 'appointment_reminder'`,
      [booking.key],
    );
    expect(mails).toHaveLength(1);
    expect(mails[0]?.text_body).toContain('Will you come?');
    // Kept as the reminder of the hours left: the 72-hour one no longer goes, a reply to the SMS finds the booking.
    expect(
      await server.db.query(`select lead_hours from appointment_reminder where booking_key = $1 and channel = 'sms'`, [booking.key]),
    ).toEqual([{ lead_hours: 50 }]);
    expect((await smsReply('+61412555123', 'yes')).json()).toEqual({ outcome: 'confirmed' });
    const [audit] = await server.db.query<{ subject_id: string; details: object }>(
      `select subject_id, details from audit_log where action = 'appointment.reminder_sent_by_staff' order by id desc limit 1`,
    );
    expect(audit).toEqual({ subject_id: row?.id, details: { email: true, sms: true } });

    server.clock.set(booking.startsAt);
    const later = await signedIn(STAFF_CLAIMS);
    expect((await later.request('POST', `${STAFF_REMINDERS_PATH}/${row?.id}`, {})).statusCode).toBe(409);
    const patientBrowser = client(server.app);
    expect((await patientBrowser.request('POST', `${STAFF_REMINDERS_PATH}/${row?.id}`, {})).statusCode).toBe(401);
  });

  it('audits who read which clinic’s day and how many, never whose', async () => {
    await listOf(`?clinic=newcastle&date=${DAY}`);
    const [audit] = await server.db.query<{ action: string; actor: string; subject_type: string; subject_id: string; details: object }>(
      `select action, actor, subject_type, subject_id, details from audit_log where action = 'staff_appointments_listed' order by id desc limit 1`,
    );
    expect(audit).toMatchObject({ subject_type: 'clinic', subject_id: 'newcastle', details: { date: DAY } });
    expect(audit?.actor).toMatch(/\S/);
    expect(JSON.stringify(audit)).not.toMatch(/Desk|0412/);
  });

  it('shows a confirmation on the appointment page as such, and refuses the patient who made it', async () => {
    server.clock.set(SEED_NOW);
    const patientBrowser = await signInWithCode(server.db, client(server.app), LIAM);
    const confirmed = await patientBrowser.request('POST', `/api/appointments/${LIAM.bookingKey}/confirm`, {});
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    // The demo booking is at Parramatta a week after the seed's day.
    const list = await listOf('?clinic=parramatta&date=2026-03-17');
    expect(list.items.find((item) => item.lastName === 'Example')).toMatchObject({
      firstName: 'Liam',
      status: 'CONFIRMED',
      answer: 'confirmedOnPage',
      reminders: [],
    });
    const refused = await patientBrowser.request('GET', `${STAFF_APPOINTMENTS_PATH}?clinic=parramatta&date=2026-03-17`);
    expect(refused.statusCode).toBe(401);
    expect(refused.body).not.toContain('Liam');
  });

  it('defaults to the first clinic and tomorrow in its zone', async () => {
    server.clock.set(SEED_NOW);
    const list = await listOf('');
    expect(list.clinic.slug).toBe(list.clinics[0]?.slug);
    // SEED_NOW is noon on 10 March in Sydney.
    expect(list.date).toBe('2026-03-11');
    const admin = await signedIn(ADMIN_CLAIMS);
    expect((await admin.request('GET', STAFF_APPOINTMENTS_PATH)).statusCode).toBe(200);
  });

  it.each([
    ['a date that is no day', '?clinic=newcastle&date=2026-02-30', 'The date must be a calendar date'],
    ['a date of another shape', '?clinic=newcastle&date=18-03-2026', 'YYYY-MM-DD'],
    ['a clinic that is no slug', '?clinic=New%20castle&date=2026-03-18', 'The clinic must be a clinic slug'],
    ['an unknown parameter', '?clinic=newcastle&date=2026-03-18&sort=name', ''],
  ])('refuses %s with a 400 that says why', async (_case, query, words) => {
    const staff = await signedIn(STAFF_CLAIMS);
    const response = await staff.request('GET', `${STAFF_APPOINTMENTS_PATH}${query}`);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toMatchObject({ code: 'validation_failed' });
    expect(JSON.stringify(response.json())).toContain(words);
  });

  it('answers 404 for a clinic nobody has', async () => {
    const staff = await signedIn(STAFF_CLAIMS);
    const response = await staff.request('GET', `${STAFF_APPOINTMENTS_PATH}?clinic=atlantis&date=2026-03-18`);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ message: 'No clinic has this slug.' });
  });

  it.each([
    ['a referrer', REFERRER_CLAIMS],
    ['a kiosk administrator', KIOSK_ADMIN_CLAIMS],
  ])('refuses %s (403) and anyone without a staff session (401)', async (_who, claims) => {
    const other = await signedIn(claims);
    expect((await other.request('GET', `${STAFF_APPOINTMENTS_PATH}?clinic=newcastle&date=${DAY}`)).statusCode).toBe(403);
    const anonymous = await server.app.inject({ method: 'GET', url: `${STAFF_APPOINTMENTS_PATH}?clinic=newcastle&date=${DAY}` });
    expect(anonymous.statusCode).toBe(401);
  });
});
