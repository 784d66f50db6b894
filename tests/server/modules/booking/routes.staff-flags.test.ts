import { describe, expect, it } from 'vitest';
import { AppointmentCreateResponseSchema } from '@contract/api/booking';
import { backends } from '../../helpers/database';
import { useTestApp } from '../../helpers/test-app';
import { book, countRows, patient, sydney } from './booking-test-kit';
import { authenticate, client, LIAM, setOtpRequired } from '../patient-access/sign-in-kit';

// staffBooking and pending are staff choices (src-server/modules/booking/booking-caller.ts): an
// anonymous client who sends them gets an ordinary patient booking, and the audit log notes the
// flags were asked for, naming the client only by its HMAC reference. Staff sessions, patient
// sessions and the other roles: routes.staff-booking.test.ts.

describe.each(backends())('staff-only booking flags from an anonymous client on %s', (backend) => {
  const server = useTestApp({ backend });

  /** The HMAC reference the sign-in audit gives a client address (the same secret names it everywhere). */
  async function signInClientRef(address: string): Promise<string> {
    await setOtpRequired(server.db, false);
    const browser = client(server.app, address);
    expect((await authenticate(browser, LIAM)).statusCode).toBe(200);
    const [row] = await server.db.query<{ client: string }>(
      `select details->>'client' as client from audit_log where action = 'patient_sign_in_succeeded' order by id desc limit 1`,
    );
    return row?.client ?? '';
  }

  it('stores an ordinary BOOKED patient booking and audits that staffBooking and pending were ignored', async () => {
    const address = '203.0.113.77';
    const mailBefore = await countRows(server.db, 'outbox_mail');
    const response = await book(
      server.app,
      {
        exams: ['ct-chest'],
        clinicSlug: 'newcastle',
        startsAt: sydney('2026-03-18', '13:00'),
        patient: patient(),
        staffBooking: true,
        pending: true,
      },
      '6f1c3c52-8d1e-4a8e-9f43-1b1e3e0f7a11',
      { remoteAddress: address },
    );
    expect(response.statusCode, response.body).toBe(201);
    const body = AppointmentCreateResponseSchema.parse(response.json());
    expect(body.status).toBe('BOOKED');

    const rows = await server.db.query<{ id: string; status: string; staff_booking: boolean }>(
      'select id::text as id, status, staff_booking from appointment where booking_key = $1',
      [body.bookingKey],
    );
    expect(rows.map(({ status, staff_booking }) => ({ status, staff_booking }))).toEqual([{ status: 'BOOKED', staff_booking: false }]);

    // The patient's mail is the ordinary confirmation: neither "the patient" wording nor "request is received".
    expect(await countRows(server.db, 'outbox_mail')).toBe(mailBefore + 1);
    const [mail] = await server.db.query<{ subject: string }>('select subject from outbox_mail order by id desc limit 1');
    expect(mail?.subject).not.toMatch(/request is received/);

    const audits = await server.db.query<{ actor: string; subject_id: string; details: Record<string, unknown>; text: string }>(
      `select actor, subject_id, details, a::text as text from audit_log a where action = 'appointment.staff_flags_ignored' order by id`,
    );
    expect(audits).toHaveLength(1);
    const [audit] = audits;
    expect(audit?.actor).toBe('anonymous');
    expect(audit?.subject_id).toBe(rows[0]?.id);
    expect(audit?.details).toEqual({ flags: ['staffBooking', 'pending'], client: await signInClientRef(address) });
    expect(audit?.details.client).toMatch(/^[0-9a-f]{16}$/);
    // Never the address or the booking key in clear.
    expect(audit?.text).not.toContain(address);
    expect(audit?.text).not.toContain(body.bookingKey);
    const [created] = await server.db.query<{ actor: string; status: string }>(
      `select actor, details->>'status' as status from audit_log where action = 'appointment.created' and subject_id = $1`,
      [rows[0]?.id],
    );
    expect(created).toEqual({ actor: 'patient', status: 'BOOKED' });
  });

  it('writes no such audit row for a booking that does not ask for them', async () => {
    const before = await countRows(server.db, 'audit_log');
    const response = await book(server.app, {
      exams: ['ct-chest'],
      clinicSlug: 'newcastle',
      startsAt: sydney('2026-03-18', '14:00'),
      patient: patient(),
      staffBooking: false,
    });
    expect(response.statusCode, response.body).toBe(201);
    const actions = await server.db.query<{ action: string }>(`select action from audit_log order by id offset $1`, [before]);
    expect(actions.map((row) => row.action)).toEqual(['appointment.created']);
  });
});
