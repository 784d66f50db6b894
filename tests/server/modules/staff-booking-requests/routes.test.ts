import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  STAFF_BOOKING_REQUESTS_PATH,
  StaffBookingRequestListSchema,
  staffBookingRequestHandledPath,
  type StaffBookingRequest,
} from '@contract/api/staff-booking-requests';
import { MINIMAL_PDF, multipart, requestBase, send } from '../attachments/attachments-kit';
import { backends } from '../../helpers/database';
import { newClientAddress, patient } from '../booking/booking-test-kit';
import { ADMIN_CLAIMS, STAFF_CLAIMS, useStaffTestApp, type StaffBrowser } from '../staff-access/identity-kit';

// The booking team's queue of booking requests (docs/rules/booking.md#the-staff-queue): each
// request whole, open ones oldest first, "handled" once, audited without the patient. Who may
// call is proven by tests/server/route-access.test.ts.

const ENQUIRY_EXAM = 'ir-thyroid-fna';
/** A sentinel that must never reach the audit log. */
const NOTE = 'Booked Parramatta Thursday 9:30 (sentinel Zephyrine)';

describe.each(backends())('the staff queue of booking requests on %s', (backend) => {
  const { server, signedIn } = useStaffTestApp({ backend, staffAddress: newClientAddress });

  async function askForRequest(lastName: string, formDetails?: object, more: object = {}): Promise<string> {
    const made = await server.app.inject({
      method: 'POST',
      url: '/api/booking/booking-requests',
      remoteAddress: newClientAddress(),
      headers: { 'idempotency-key': randomUUID() },
      payload: {
        exams: [ENQUIRY_EXAM],
        ...more,
        patient: patient({ lastName }),
        patientNotes: 'Mornings suit me',
        ...(formDetails ? { formDetails } : {}),
      },
    });
    expect(made.statusCode, made.body).toBe(201);
    return made.json<{ bookingKey: string }>().bookingKey;
  }

  async function queue(staff: StaffBrowser) {
    const response = await staff.request('GET', STAFF_BOOKING_REQUESTS_PATH);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    return StaffBookingRequestListSchema.parse(response.json());
  }

  const find = (items: StaffBookingRequest[], key: string) => items.find((item) => item.bookingKey === key);

  it('lists a request whole, with its payment and background answers, open ones oldest first', async () => {
    const older = await askForRequest('Queueolder', {
      insurance: { typeCode: 'DVA', memberNumber: 'NX123456' },
      ethnicityCode: 'NOT_STATED',
      referringPractice: { name: 'Harbour Medical Centre', suburb: 'Parramatta' },
    });
    server.clock.advance(60_000);
    const newer = await askForRequest('Queuenewer');
    const staff = await signedIn(STAFF_CLAIMS);
    // The referral, uploaded to the request as the booking team may (docs/rules/attachments.md#who-may-do-what).
    const [referralType] = await server.db.query<{ id: string }>(`select id::text as id from document_type where code = 'REFERRAL'`);
    const file = multipart(
      { documentTypeId: referralType?.id ?? '' },
      { name: 'referral.pdf', type: 'application/pdf', bytes: MINIMAL_PDF },
    );
    const uploaded = await send(server.app, { staffToken: staff.token ?? '' }, 'POST', requestBase(older), file);
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const list = await queue(staff);

    const item = find(list.items, older);
    expect(item).toMatchObject({
      status: 'open',
      exams: ['Interventional radiology - Ultrasound-guided thyroid fine needle aspiration'],
      clinicName: null,
      patientNotes: 'Mornings suit me',
      channel: 'web',
      preferredTimes: [],
      screeningByPhone: false,
      patient: { name: expect.stringContaining('Queueolder'), dateOfBirth: expect.any(String) },
      formDetails: {
        insurance: { code: 'DVA', memberNumber: 'NX123456' },
        ethnicity: { code: 'NOT_STATED' },
        referringPractice: { name: 'Harbour Medical Centre', suburb: 'Parramatta' },
      },
      referrals: [
        { fileName: 'referral.pdf', downloadUrl: expect.stringMatching(new RegExp(`^${requestBase(older)}/[0-9a-f-]+/download$`)) },
      ],
      handledAt: null,
      handledBy: null,
    });
    // The link serves the file to staff.
    const download = await send(server.app, { staffToken: staff.token ?? '' }, 'GET', item?.referrals[0]?.downloadUrl ?? '');
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(MINIMAL_PDF)).toBe(true);
    expect(find(list.items, newer)).toMatchObject({ formDetails: null, referrals: [] });
    const open = list.items.filter((entry) => entry.status === 'open').map((entry) => entry.bookingKey);
    expect(open.indexOf(older)).toBeLessThan(open.indexOf(newer));
    expect(list.openTotal).toBe(open.length);
  });

  it('shows a chat request with its preferred times, and that its screening is asked on the phone', async () => {
    const key = await askForRequest('Chatqueue', undefined, {
      exams: ['mri-knee'],
      channel: 'chat',
      preferredTimes: ['weekdayMorning', 'saturdayMorning'],
    });
    const item = find((await queue(await signedIn(STAFF_CLAIMS))).items, key);
    expect(item).toMatchObject({ channel: 'chat', preferredTimes: ['weekdayMorning', 'saturdayMorning'], screeningByPhone: true });
  });

  it('marks a request handled once, with a note; a second mark, an unknown key, a cancelled request and bad input are refused and change nothing', async () => {
    const key = await askForRequest('Handleme');
    const staff = await signedIn(STAFF_CLAIMS);
    const before = await queue(staff);

    expect((await staff.request('POST', staffBookingRequestHandledPath(key), { note: 'x'.repeat(501) })).statusCode).toBe(400);
    expect((await staff.request('POST', staffBookingRequestHandledPath(key), { note: 'ok', extra: 1 })).statusCode).toBe(400);
    expect((await staff.request('POST', staffBookingRequestHandledPath('not a key!'), {})).statusCode).toBe(400);
    expect((await staff.request('POST', staffBookingRequestHandledPath('A'.repeat(22)), {})).statusCode).toBe(404);
    expect(find((await queue(staff)).items, key)?.status).toBe('open');

    const marked = await staff.request('POST', staffBookingRequestHandledPath(key), { note: NOTE });
    expect(marked.statusCode, marked.body).toBe(204);
    const after = await queue(staff);
    expect(after.openTotal).toBe(before.openTotal - 1);
    expect(find(after.items, key)).toMatchObject({
      status: 'handled',
      note: NOTE,
      handledBy: expect.any(String),
      handledAt: expect.any(String),
    });

    const admin = await signedIn(ADMIN_CLAIMS);
    const again = await admin.request('POST', staffBookingRequestHandledPath(key), {});
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(/already/);

    const cancelled = await askForRequest('Cancelledone');
    await server.db.query(`update booking_request set status = 'CANCELED' where booking_key = $1`, [cancelled]);
    const refused = await staff.request('POST', staffBookingRequestHandledPath(cancelled), {});
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/cancelled/);
    expect(find((await queue(staff)).items, cancelled)?.status).toBe('cancelled');
  });

  it('audits listing and marking without the patient, the note or the booking key', async () => {
    const key = await askForRequest('Auditless');
    const staff = await signedIn(STAFF_CLAIMS);
    await queue(staff);
    expect((await staff.request('POST', staffBookingRequestHandledPath(key), { note: NOTE })).statusCode).toBe(204);
    const rows = await server.db.query<{ action: string; actor: string; subject_id: string | null; details: unknown }>(
      `select action, actor, subject_id, details from audit_log where action in ('staff_booking_requests_listed', 'booking_request_handled')`,
    );
    expect(rows.map((row) => row.action)).toEqual(expect.arrayContaining(['staff_booking_requests_listed', 'booking_request_handled']));
    const text = JSON.stringify(rows);
    expect(text).not.toContain('Auditless');
    expect(text).not.toContain('Zephyrine');
    expect(text).not.toContain(key);
    expect(rows.every((row) => /^staff:[0-9a-f]{16}$/.test(row.actor))).toBe(true);
  });
});
