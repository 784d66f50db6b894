import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { BookingRequestSummarySchema, type BookingRequestSummary } from '@contract/api/booking-requests';
import { isStaffToken, referralContentType, safeFileName } from '../../../../src-server/modules/booking-requests/service';
import { backends } from '../../helpers/database';
import { useTestApp } from '../../helpers/test-app';
import { auditSince, signIn, type Signed } from '../appointments/self-service-kit';
import { lastAuditId, setOtpRequired } from '../patient-access/sign-in-kit';

// Demo booking requests (resources/demo-provider/self-service.json): Chloe (one exam at
// Parramatta, one PDF referral) and Harriet (two exams, no clinic, a PDF and a PNG referral).

const CHLOE = { bookingKey: 'pVC8vuYWYJuWi6jKwcf5Cg', dateOfBirth: '1979-05-23' };
const HARRIET = { bookingKey: 'sJOROmG7Kksv3ga8UObC2A', dateOfBirth: '1962-09-08' };
const REFERRALS = fileURLToPath(new URL('../../../../resources/demo-provider/referrals/', import.meta.url));
const STAFF_TOKEN = 'staff-token-for-tests-0123456789';
const OTHER_STAFF_TOKEN = 'second-staff-token-abcdefghijklmnop';
const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

describe('booking-request helpers', () => {
  it('detects the content type from the bytes, never the name', () => {
    expect(referralContentType(new TextEncoder().encode('%PDF-1.7 ...'))).toBe('application/pdf');
    expect(referralContentType(readFileSync(join(REFERRALS, 'ultrasound-report-page.png')))).toBe('image/png');
    expect(referralContentType(new TextEncoder().encode('<html><script>alert(1)</script>'))).toBe('application/octet-stream');
    expect(referralContentType(new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"></svg>'))).toBe(
      'application/octet-stream',
    );
  });

  it('sanitises download names: no path, no quotes or control characters, the extension of the real type', () => {
    expect(safeFileName('referral-cardiac-mri.pdf', 'application/pdf')).toBe('referral-cardiac-mri.pdf');
    expect(safeFileName('../../etc/passwd', 'application/octet-stream')).toBe('passwd.bin');
    expect(safeFileName('C:\\Users\\me\\scan "final".html', 'application/pdf')).toBe('scan _final_.pdf');
    expect(safeFileName('evil\r\nSet-Cookie: x=1.pdf', 'application/pdf')).toBe('evil_Set-Cookie_ x_1.pdf');
    expect(safeFileName('...', 'image/png')).toBe('referral.png');
    expect(safeFileName('Überweisung.jpeg', 'image/jpeg')).toBe('Uberweisung.jpg');
    expect(safeFileName(`${'a'.repeat(300)}.pdf`, 'application/pdf')).toHaveLength(94);
  });

  it('accepts a staff token only when its sha256 is configured', () => {
    const digests = [sha256(STAFF_TOKEN), sha256(OTHER_STAFF_TOKEN)];
    expect(isStaffToken(STAFF_TOKEN, digests)).toBe(true);
    expect(isStaffToken(OTHER_STAFF_TOKEN, digests)).toBe(true);
    expect(isStaffToken(`${STAFF_TOKEN}x`, digests)).toBe(false);
    expect(isStaffToken(sha256(STAFF_TOKEN), digests)).toBe(false);
    expect(isStaffToken(STAFF_TOKEN, [])).toBe(false);
  });
});

describe.each(backends())('booking requests on %s', (backend) => {
  const server = useTestApp({
    backend,
    env: { STAFF_API_TOKEN_SHA256: `${sha256(STAFF_TOKEN)}, ${sha256(OTHER_STAFF_TOKEN).toUpperCase()}` },
  });
  // With otpRequired on, booking requests ask for the one-time code too
  // (tests/server/modules/patient-access/routes.attempt-limits.test.ts); here the date of birth is enough.
  beforeAll(() => setOtpRequired(server.db, false));

  const url = (key: string, rest = ''): string => `/api/booking-requests/${key}${rest}`;
  const summaryOf = async (signed: Signed, key: string): Promise<BookingRequestSummary> => {
    const response = await signed.get(url(key));
    expect(response.statusCode, response.body).toBe(200);
    return BookingRequestSummarySchema.parse(response.json());
  };

  it('signs in with the date of birth (otpRequired off) and answers the summary', async () => {
    const chloe = await signIn(server.app, CHLOE.bookingKey, CHLOE.dateOfBirth, 'BOOKING_REQUEST');
    const summary = await summaryOf(chloe, CHLOE.bookingKey);
    expect(summary).toMatchObject({
      bookingKey: CHLOE.bookingKey,
      status: 'BOOKED',
      patientNotes: 'Mornings suit me best.',
      bookingDetails: {
        exams: [{ slug: 'mri-cardiac', nameWithModality: expect.stringMatching(/^MRI - /) }],
        clinicName: expect.stringMatching(/Parramatta/),
      },
      patientDetails: { title: 'Ms', firstName: 'Chloe', lastName: 'Request', dateOfBirth: '1979-05-23', postalCode: '2150' },
      referrals: [{ fileName: 'referral-cardiac-mri.pdf', contentType: 'application/pdf' }],
    });
    expect(summary.bookingInfoHtml).toContain('<a href="tel:+61290000000">');

    const harriet = await signIn(server.app, HARRIET.bookingKey, HARRIET.dateOfBirth, 'BOOKING_REQUEST');
    const two = await summaryOf(harriet, HARRIET.bookingKey);
    expect(two.bookingDetails.exams.map((exam) => exam.slug).sort()).toEqual(['ir-breast-biopsy', 'ir-thyroid-fna']);
    expect(two.bookingDetails.clinicName).toBeNull();
    expect(two.referrals.map((referral) => [referral.fileName, referral.contentType])).toEqual([
      ['referral-biopsy.pdf', 'application/pdf'],
      ['ultrasound-report-page.png', 'image/png'],
    ]);
  });

  it('downloads a referral as an attachment with the type of its bytes; another booking’s or an unknown id is 404', async () => {
    const chloe = await signIn(server.app, CHLOE.bookingKey, CHLOE.dateOfBirth, 'BOOKING_REQUEST');
    const [referral] = (await summaryOf(chloe, CHLOE.bookingKey)).referrals;
    const since = await lastAuditId(server.db);
    const response = await chloe.get(url(CHLOE.bookingKey, `/referrals/${referral?.id ?? ''}/download`));
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe('attachment; filename="referral-cardiac-mri.pdf"');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['cache-control']).toBe('private, no-store');
    expect(Buffer.compare(response.rawPayload, readFileSync(join(REFERRALS, 'referral-cardiac-mri.pdf')))).toBe(0);
    expect((await auditSince(server.db, since)).map((row) => row.action)).toEqual(['booking_request.referral_downloaded']);

    const harriet = await signIn(server.app, HARRIET.bookingKey, HARRIET.dateOfBirth, 'BOOKING_REQUEST');
    const harrietsReferral = (await summaryOf(harriet, HARRIET.bookingKey)).referrals[0]?.id ?? '';
    expect((await chloe.get(url(CHLOE.bookingKey, `/referrals/${harrietsReferral}/download`))).statusCode).toBe(404);
    expect((await chloe.get(url(CHLOE.bookingKey, `/referrals/${randomUUID()}/download`))).statusCode).toBe(404);
    expect((await chloe.get(url(CHLOE.bookingKey, '/referrals/not-a-uuid/download'))).statusCode).toBe(400);
  });

  it('serves an HTML file stored under a .pdf name as a plain download with a safe name', async () => {
    const [row] = await server.db.query<{ id: string }>(
      `insert into booking_request_referral (booking_key, file_name, content, sha256, created_at)
       values ($1, $2, convert_to($3, 'UTF8'), repeat('0', 64), now()) returning id::text as id`,
      [HARRIET.bookingKey, '..\\..\\"scan".pdf', '<html><script>alert(document.cookie)</script></html>'],
    );
    try {
      const harriet = await signIn(server.app, HARRIET.bookingKey, HARRIET.dateOfBirth, 'BOOKING_REQUEST');
      const response = await harriet.get(url(HARRIET.bookingKey, `/referrals/${row?.id ?? ''}/download`));
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/octet-stream');
      expect(response.headers['content-disposition']).toBe('attachment; filename="scan_.bin"');
    } finally {
      await server.db.query('delete from booking_request_referral where id = $1', [row?.id]);
    }
  });

  it('cancels the request (CANCELED, audited once; a second cancel changes nothing)', async () => {
    const harriet = await signIn(server.app, HARRIET.bookingKey, HARRIET.dateOfBirth, 'BOOKING_REQUEST');
    const since = await lastAuditId(server.db);
    const response = await harriet.post(url(HARRIET.bookingKey, '/cancel'));
    expect(response.statusCode, response.body).toBe(200);
    expect(BookingRequestSummarySchema.parse(response.json()).status).toBe('CANCELED');
    const rows = await server.db.query<{ status: string }>('select status from booking_request where booking_key = $1', [
      HARRIET.bookingKey,
    ]);
    expect(rows.map((row) => row.status)).toEqual(['CANCELED', 'CANCELED']);
    expect((await harriet.post(url(HARRIET.bookingKey, '/cancel'))).statusCode).toBe(200);
    const audit = await auditSince(server.db, since);
    expect(audit).toEqual([{ actor: 'patient', action: 'booking_request.cancelled', details: { from: 'BOOKED', to: 'CANCELED' } }]);
  });

  it('lets staff change the status with a configured bearer token only (403 otherwise, 400 for a bad status)', async () => {
    const put = (authorization: string | null, payload: object, key = HARRIET.bookingKey) =>
      server.app.inject({ method: 'PUT', url: url(key, '/status'), headers: authorization === null ? {} : { authorization }, payload });
    const before = await lastAuditId(server.db);
    for (const authorization of [null, 'Bearer wrong-token', `Basic ${STAFF_TOKEN}`, `Bearer ${sha256(STAFF_TOKEN)}`, 'Bearer ']) {
      const refused = await put(authorization, { status: 'BOOKED' });
      expect(refused.statusCode, String(authorization)).toBe(403);
      expect(refused.json()).toMatchObject({ code: 'forbidden' });
    }
    // Nothing changed: the only rows are the refusals themselves (src-server/platform/security-audit.ts).
    const refusals = await auditSince(server.db, before);
    expect(refusals.map((row) => [row.action, row.details.reason])).toEqual([
      ['authorization_failed', 'staff_token_missing'],
      ['authorization_failed', 'staff_token_wrong'],
      ['authorization_failed', 'staff_token_missing'],
      ['authorization_failed', 'staff_token_wrong'],
      ['authorization_failed', 'staff_token_missing'],
    ]);
    expect(JSON.stringify(refusals)).not.toContain(STAFF_TOKEN);
    expect((await put(`Bearer ${STAFF_TOKEN}`, { status: 'LOST' })).statusCode).toBe(400);
    expect((await put(`Bearer ${STAFF_TOKEN}`, { status: 'BOOKED' }, 'AAAAAAAAAAAAAAAAAAAAAA')).statusCode).toBe(404);

    const reopened = await put(`Bearer ${STAFF_TOKEN}`, { status: 'BOOKED' });
    expect(reopened.statusCode, reopened.body).toBe(200);
    expect(BookingRequestSummarySchema.parse(reopened.json()).status).toBe('BOOKED');
    const second = await put(`Bearer ${OTHER_STAFF_TOKEN}`, { status: 'CANCELED' });
    expect(second.statusCode).toBe(200);
    const audit = await auditSince(server.db, before);
    expect(audit.filter((row) => row.action !== 'authorization_failed')).toEqual([
      { actor: 'staff', action: 'booking_request.status_changed', details: { from: 'CANCELED', to: 'BOOKED' } },
      { actor: 'staff', action: 'booking_request.cancelled', details: { from: 'BOOKED', to: 'CANCELED' } },
    ]);
    expect(JSON.stringify(audit)).not.toContain(STAFF_TOKEN);
  });

  it('refuses every patient endpoint without a session (401) and changes nothing', async () => {
    const [referral] = await server.db.query<{ id: string }>('select id::text as id from booking_request_referral where booking_key = $1', [
      CHLOE.bookingKey,
    ]);
    for (const [method, path] of [
      ['GET', url(CHLOE.bookingKey)],
      ['POST', url(CHLOE.bookingKey, '/cancel')],
      ['GET', url(CHLOE.bookingKey, `/referrals/${referral?.id ?? ''}/download`)],
    ] as const) {
      const response = await server.app.inject({ method, url: path });
      expect(response.statusCode, path).toBe(401);
    }
    const rows = await server.db.query<{ status: string }>('select status from booking_request where booking_key = $1', [CHLOE.bookingKey]);
    expect(rows.map((row) => row.status)).toEqual(['BOOKED']);
  });
});
