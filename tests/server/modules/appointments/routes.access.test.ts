import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../../helpers/database';
import { useTestApp } from '../../helpers/test-app';
import { countRows, slotsOn } from '../booking/booking-test-kit';
import { client, newAddress, setOtpRequired } from '../patient-access/sign-in-kit';
import { bookThrough, rowsOf, signedAs, signIn, type Signed } from './self-service-kit';

// Access (docs/rules/patient-access.md#session-guard): one patient's session can never read or change another booking. Every
// self-service endpoint is walked with another booking's session (and with none): each answers
// 401 and nothing changes. Then the full sign-in with a one-time password read from the outbox.

const LIAM = { bookingKey: 'DQZGrZ3wpC5qCgHhYxQeMw', dateOfBirth: '1991-03-14', email: 'liam.example@example.com' };
const AMELIA = { bookingKey: 'RTZZ7AsePVS1c6abT-l4BA', dateOfBirth: '1968-11-02' };
const CHLOE_REQUEST = { bookingKey: 'pVC8vuYWYJuWi6jKwcf5Cg', dateOfBirth: '1979-05-23' };
const HARRIET_REQUEST = { bookingKey: 'sJOROmG7Kksv3ga8UObC2A', dateOfBirth: '1962-09-08' };

describe.each(backends())('self-service access on %s', (backend) => {
  const server = useTestApp({ backend });
  beforeAll(() => setOtpRequired(server.db, false));

  async function snapshot(): Promise<unknown> {
    return {
      target: await rowsOf(server.db, LIAM.bookingKey),
      requests: await server.db.query(`select booking_key, status from booking_request order by booking_key, slug`),
      unsubscribed: await server.db.query(`select count(*)::int as count from mail_recipient where unsubscribed_at is not null`),
      changes: await countRows(server.db, 'appointment_change'),
      signatures: await countRows(server.db, 'consent_signature'),
      detailRequests: await countRows(server.db, 'details_change_request'),
      appointments: await countRows(server.db, 'appointment'),
    };
  }

  it('refuses EVERY self-service endpoint with another booking’s session (401) and changes nothing', async () => {
    const victim = LIAM.bookingKey;
    const [form] = await server.db.query<{ id: string }>(`select id::text as id from consent_form where slug = 'privacy-and-consent'`);
    const [referral] = await server.db.query<{ id: string }>(`select id::text as id from booking_request_referral where booking_key = $1`, [
      CHLOE_REQUEST.bookingKey,
    ]);
    const target = (await slotsOn(server.app, 'mri-knee', 'parramatta', '2026-03-23'))[0]?.startsAt ?? '';

    const appointmentCalls = (signed: Signed): Array<[string, () => Promise<LightMyRequestResponse>]> => [
      ['summary', () => signed.get(`/api/appointments/${victim}`)],
      ['can-change', () => signed.get(`/api/appointments/${victim}/can-change?action=CANCEL`)],
      ['cancel', () => signed.post(`/api/appointments/${victim}/cancel`, { reason: { label: 'Other' } })],
      [
        'reschedule',
        () =>
          signed.post(
            `/api/appointments/${victim}/reschedule`,
            { context: 'RESCHEDULED', clinicSlug: 'parramatta', startsAt: target },
            { 'idempotency-key': randomUUID() },
          ),
      ],
      ['request-reschedule', () => signed.post(`/api/appointments/${victim}/request-reschedule`, { note: 'hi' })],
      ['confirm', () => signed.post(`/api/appointments/${victim}/confirm`)],
      ['consent-forms', () => signed.get(`/api/appointments/${victim}/consent-forms`)],
      [
        'sign consent form',
        () => signed.put(`/api/appointments/${victim}/consent-forms/${form?.id ?? ''}`, { signedName: 'Mallory', agreed: true }),
      ],
      ['details-change-request', () => signed.post(`/api/appointments/${victim}/details-change-request`, { lastName: 'Mallory' })],
      ['unsubscribe', () => signed.post(`/api/appointments/${victim}/unsubscribe`)],
      // Liam's own key, but the booking-request side: a session is for one subject type.
      ['booking-request summary of an appointment key', () => signed.get(`/api/booking-requests/${victim}`)],
    ];
    const requestCalls = (signed: Signed): Array<[string, () => Promise<LightMyRequestResponse>]> => [
      ['booking-request summary', () => signed.get(`/api/booking-requests/${CHLOE_REQUEST.bookingKey}`)],
      ['booking-request cancel', () => signed.post(`/api/booking-requests/${CHLOE_REQUEST.bookingKey}/cancel`)],
      ['referral download', () => signed.get(`/api/booking-requests/${CHLOE_REQUEST.bookingKey}/referrals/${referral?.id ?? ''}/download`)],
    ];

    const before = await snapshot();
    const amelia = await signIn(server.app, AMELIA.bookingKey, AMELIA.dateOfBirth);
    const harriet = await signIn(server.app, HARRIET_REQUEST.bookingKey, HARRIET_REQUEST.dateOfBirth, 'BOOKING_REQUEST');
    const nobody = signedAs(server.app, client(server.app, newAddress()));
    // Their own bookings work, so the sessions are real.
    expect((await amelia.get(`/api/appointments/${AMELIA.bookingKey}`)).statusCode).toBe(200);
    expect((await harriet.get(`/api/booking-requests/${HARRIET_REQUEST.bookingKey}`)).statusCode).toBe(200);

    const attempts: Array<[string, Signed, Array<[string, () => Promise<LightMyRequestResponse>]>]> = [
      ['another appointment session', amelia, [...appointmentCalls(amelia), ...requestCalls(amelia)]],
      ['another booking-request session', harriet, [...appointmentCalls(harriet), ...requestCalls(harriet)]],
      ['no session', nobody, [...appointmentCalls(nobody), ...requestCalls(nobody)]],
    ];
    let walked = 0;
    for (const [who, , calls] of attempts) {
      for (const [name, call] of calls) {
        const response = await call();
        expect(response.statusCode, `${who}: ${name}: ${response.body}`).toBe(401);
        expect(response.json()).toEqual({ code: 'unauthorized', message: 'Please sign in to see this booking.' });
        walked += 1;
      }
    }
    expect(walked).toBe(3 * 14);
    // The staff endpoint is not a patient endpoint at all: a patient session is no bearer token.
    const staff = await amelia.put(`/api/booking-requests/${CHLOE_REQUEST.bookingKey}/status`, { status: 'CANCELED' });
    expect(staff.statusCode).toBe(403);
    expect(await snapshot()).toEqual(before);
  });

  it('refuses a session that has not finished the one-time password, and opens after the code from the e-mail', async () => {
    await setOtpRequired(server.db, true);
    try {
      const browser = client(server.app, newAddress());
      const signed = signedAs(server.app, browser);
      const started = await browser.request('POST', '/api/patient-access/authenticate', {
        bookingKey: LIAM.bookingKey,
        type: 'APPOINTMENT',
        dateOfBirth: LIAM.dateOfBirth,
      });
      expect(started.json()).toMatchObject({ otpRequired: true });
      expect((await signed.get(`/api/appointments/${LIAM.bookingKey}`)).statusCode).toBe(401);
      expect((await signed.post(`/api/appointments/${LIAM.bookingKey}/confirm`)).statusCode).toBe(401);

      const sent = await browser.request('POST', '/api/patient-access/otp', { channel: 'EMAIL' });
      expect(sent.statusCode, sent.body).toBe(202);
      const [mail] = await server.db.query<{ text_body: string }>(
        `select text_body from outbox_mail where recipient = $1 and kind = 'otp_code' order by id desc limit 1`,
        [LIAM.email],
      );
      const code = /\b(\d{6})\b/.exec(mail?.text_body ?? '')?.[1] ?? '';
      expect(code).toMatch(/^\d{6}$/);
      const verified = await browser.request('POST', '/api/patient-access/otp/verify', { code });
      expect(verified.statusCode, verified.body).toBe(200);
      expect((await signed.get(`/api/appointments/${LIAM.bookingKey}`)).statusCode).toBe(200);
      // Still only this booking.
      expect((await signed.get(`/api/appointments/${AMELIA.bookingKey}`)).statusCode).toBe(401);
    } finally {
      await setOtpRequired(server.db, false);
    }
  });

  it('a booking made through the booking API can be signed in to and managed at once', async () => {
    const booked = await bookThrough(server.app, { exams: 'xr-chest', clinic: 'chatswood', date: '2026-03-20', slot: 1 });
    const signed = await signIn(server.app, booked.bookingKey, booked.dateOfBirth);
    expect((await signed.get(`/api/appointments/${booked.bookingKey}`)).json()).toMatchObject({ status: 'BOOKED' });
    expect((await signed.get(`/api/appointments/${LIAM.bookingKey}`)).statusCode).toBe(401);
  });
});
