import { createHash, randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { AppointmentCreateResponseSchema } from '@contract/api/booking';
import type { BookingLimits } from '../../../../src-server/modules/booking/booking-limits';
import { backends } from '../../helpers/database';
import { authenticate, client, LIAM, setOtpRequired } from '../patient-access/sign-in-kit';
import {
  ADMIN_CLAIMS,
  KIOSK_ADMIN_CLAIMS,
  REFERRER_CLAIMS,
  STAFF_CLAIMS,
  signedInStaff,
  useStaffTestApp,
  useTestIdentityProvider,
} from '../staff-access/identity-kit';
import { newClientAddress, patient, slotsOn } from './booking-test-kit';
import { useLimitedApp } from './limited-app';
import type { CookieBrowser } from '../../helpers/cookie-browser';

// staffBooking is honoured only for a staff session with the staff or admin role
// (docs/rules/booking.md#staff-bookings): the booking names the staff member and the audit log
// says who booked. Anyone else who asks gets the patient flow, and the audit log says who asked.

const EXAM = 'ct-brain';
const CLINIC = 'parramatta';
const DATE = '2026-03-19';

const sha256Prefix = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 16);
const staffRef = (subject: string): string => `staff:${sha256Prefix(subject)}`;

type Stored = {
  status: string;
  staff_booking: boolean;
  booked_by_staff_subject: string | null;
  booked_by_staff_username: string | null;
};

describe.each(backends())('bookings on behalf of patients on %s', (backend) => {
  const { server, signedIn } = useStaffTestApp({ backend, staffAddress: newClientAddress });
  beforeAll(() => setOtpRequired(server.db, false));

  async function bookAs(browser: CookieBrowser | null, flags: object): Promise<LightMyRequestResponse> {
    const [slot] = await slotsOn(server.app, EXAM, CLINIC, DATE);
    if (slot === undefined) throw new Error('no free time left');
    const body = { exams: [EXAM], clinicSlug: CLINIC, startsAt: slot.startsAt, patient: patient(), ...flags };
    const headers = { 'idempotency-key': randomUUID() };
    if (browser !== null) return browser.request('POST', '/api/booking/appointments', body, headers);
    return server.app.inject({
      method: 'POST',
      url: '/api/booking/appointments',
      remoteAddress: newClientAddress(),
      headers,
      payload: body,
    });
  }

  async function stored(
    response: LightMyRequestResponse,
  ): Promise<{ id: string; row: Stored; audits: Array<{ actor: string; action: string; details: object }> }> {
    expect(response.statusCode, response.body).toBe(201);
    const { bookingKey } = AppointmentCreateResponseSchema.parse(response.json());
    const [row] = await server.db.query<Stored & { id: string }>(
      `select id::text as id, status, staff_booking, booked_by_staff_subject, booked_by_staff_username from appointment where booking_key = $1`,
      [bookingKey],
    );
    if (row === undefined) throw new Error('no appointment stored');
    const audits = await server.db.query<{ actor: string; action: string; details: object }>(
      `select actor, action, details from audit_log where subject_type = 'appointment' and subject_id = $1 order by id`,
      [row.id],
    );
    const { id, ...rest } = row;
    return { id, row: rest, audits };
  }

  it('records a staff booking with the staff member who made it, honours pending, and audits the person', async () => {
    const staff = await signedIn(STAFF_CLAIMS);
    const { row, audits } = await stored(await bookAs(staff, { staffBooking: true, pending: true }));
    expect(row).toEqual({
      status: 'PENDING',
      staff_booking: true,
      booked_by_staff_subject: STAFF_CLAIMS.oid,
      booked_by_staff_username: STAFF_CLAIMS.preferred_username,
    });
    expect(audits).toEqual([
      expect.objectContaining({ actor: 'staff', action: 'appointment.created' }),
      {
        actor: staffRef(STAFF_CLAIMS.oid),
        action: 'appointment.booked_by_staff',
        details: { username: STAFF_CLAIMS.preferred_username, status: 'PENDING' },
      },
    ]);
  });

  it('records an admin’s staff booking the same way', async () => {
    const admin = await signedIn(ADMIN_CLAIMS);
    const { row, audits } = await stored(await bookAs(admin, { staffBooking: true }));
    expect(row).toEqual({
      status: 'BOOKED',
      staff_booking: true,
      booked_by_staff_subject: ADMIN_CLAIMS.oid,
      booked_by_staff_username: ADMIN_CLAIMS.preferred_username,
    });
    expect(audits.map((audit) => [audit.actor, audit.action])).toEqual([
      ['staff', 'appointment.created'],
      [staffRef(ADMIN_CLAIMS.oid), 'appointment.booked_by_staff'],
    ]);
  });

  it('a staff session that does not ask for staffBooking makes an ordinary patient booking', async () => {
    const staff = await signedIn(STAFF_CLAIMS);
    const { row, audits } = await stored(await bookAs(staff, {}));
    expect(row).toEqual({ status: 'BOOKED', staff_booking: false, booked_by_staff_subject: null, booked_by_staff_username: null });
    expect(audits.map((audit) => [audit.actor, audit.action])).toEqual([['patient', 'appointment.created']]);
    // pending alone is not a staff booking either: ignored, and the audit names the person.
    const pendingOnly = await stored(await bookAs(staff, { pending: true }));
    expect(pendingOnly.row.status).toBe('BOOKED');
    expect(pendingOnly.audits[1]).toMatchObject({
      actor: staffRef(STAFF_CLAIMS.oid),
      action: 'appointment.staff_flags_ignored',
      details: { flags: ['pending'], staffRoles: ['staff'] },
    });
  });

  it.each([
    ['referrer', REFERRER_CLAIMS],
    ['kioskAdmin', KIOSK_ADMIN_CLAIMS],
  ])('ignores staffBooking from a %s session and audits the person', async (role, claims) => {
    const browser = await signedIn(claims);
    const { row, audits } = await stored(await bookAs(browser, { staffBooking: true, pending: true }));
    expect(row).toEqual({ status: 'BOOKED', staff_booking: false, booked_by_staff_subject: null, booked_by_staff_username: null });
    expect(audits).toEqual([
      expect.objectContaining({ actor: 'patient', action: 'appointment.created' }),
      {
        actor: staffRef(claims.oid),
        action: 'appointment.staff_flags_ignored',
        details: { flags: ['staffBooking', 'pending'], client: expect.stringMatching(/^[0-9a-f]{16}$/), staffRoles: [role] },
      },
    ]);
  });

  it('ignores staffBooking from a signed-in patient and names the patient session in the audit', async () => {
    const browser = client(server.app, newClientAddress());
    expect((await authenticate(browser, LIAM)).statusCode).toBe(200);
    const cookie = browser.token ?? '';
    const { row, audits } = await stored(await bookAs(browser, { staffBooking: true }));
    expect(row).toEqual({ status: 'BOOKED', staff_booking: false, booked_by_staff_subject: null, booked_by_staff_username: null });
    expect(audits[1]).toEqual({
      actor: `session:${sha256Prefix(cookie)}`,
      action: 'appointment.staff_flags_ignored',
      details: { flags: ['staffBooking'], client: expect.stringMatching(/^[0-9a-f]{16}$/) },
    });
    expect(JSON.stringify(audits)).not.toContain(cookie);
  });

  it('ignores staffBooking from an anonymous caller, and from a staff cookie that is no session', async () => {
    const anonymous = await stored(await bookAs(null, { staffBooking: true }));
    expect(anonymous.row.booked_by_staff_subject).toBeNull();
    expect(anonymous.audits[1]).toMatchObject({ actor: 'anonymous', action: 'appointment.staff_flags_ignored' });

    const staff = await signedIn(STAFF_CLAIMS);
    expect((await staff.logout()).statusCode).toBe(204);
    staff.token = 'A'.repeat(43);
    const ended = await stored(await bookAs(staff, { staffBooking: true }));
    expect(ended.row).toMatchObject({ staff_booking: false, booked_by_staff_subject: null });
    expect(ended.audits[1]).toMatchObject({ actor: 'anonymous', action: 'appointment.staff_flags_ignored' });
  });
});

const LIMITS: BookingLimits = {
  holdsPerClient: { captchaAfter: 1, refuseAfter: 2 },
  bookingsPerClient: { captchaAfter: 1, refuseAfter: 2 },
  bookingsPerContact: { captchaAfter: 1, refuseAfter: 2 },
  confirmationMailsPerEmail: 2,
  timeZone: 'Australia/Sydney',
};

describe.each(backends())('staff bookings and the booking limits on %s', (backend) => {
  const provider = useTestIdentityProvider();
  const server = useLimitedApp(backend, LIMITS, () => provider.options);

  async function freeTime(): Promise<string> {
    const [slot] = await slotsOn(server.app, EXAM, CLINIC, DATE);
    if (slot === undefined) throw new Error('no free time left');
    return slot.startsAt;
  }

  it('a staff member books and holds for many patients from one desk without being limited; a patient there is', async () => {
    const desk = newClientAddress();
    const staff = await signedInStaff(server.app, provider, STAFF_CLAIMS, server.clock.now(), desk);
    const onePatient = patient();
    for (let count = 0; count < 4; count += 1) {
      const held = await staff.request('POST', '/api/booking/holds', { exams: [EXAM], clinicSlug: CLINIC, startsAt: await freeTime() });
      expect(held.statusCode, held.body).toBe(201);
      const booked = await staff.request(
        'POST',
        '/api/booking/appointments',
        { exams: [EXAM], clinicSlug: CLINIC, startsAt: await freeTime(), patient: onePatient, staffBooking: true },
        { 'idempotency-key': randomUUID() },
      );
      expect(booked.statusCode, booked.body).toBe(201);
    }
    // A patient at the desk, without a session.
    const bookAtDesk = async (flags: object) =>
      server.app.inject({
        method: 'POST',
        url: '/api/booking/appointments',
        remoteAddress: desk,
        headers: { 'idempotency-key': randomUUID() },
        payload: { exams: [EXAM], clinicSlug: CLINIC, startsAt: await freeTime(), patient: patient(), ...flags },
      });
    // The staff member's holds and bookings were not counted against the desk: a patient there books once freely.
    const first = await bookAtDesk({});
    expect(first.statusCode, first.body).toBe(201);
    const second = await bookAtDesk({ staffBooking: true });
    expect(second.statusCode, 'the flag without a staff session is limited as any booking').toBe(403);
    expect(second.json()).toMatchObject({ code: 'captcha_required' });
  });
});
