import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { BookingRequestSummarySchema, type BookingRequestSummary } from '@contract/api/booking-requests';
import { matchesTokenDigest } from '../../../../src-server/platform/api-tokens';
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
  it('accepts a staff token only when its sha256 is configured', () => {
    const digests = [sha256(STAFF_TOKEN), sha256(OTHER_STAFF_TOKEN)];
    expect(matchesTokenDigest(STAFF_TOKEN, digests)).toBe(true);
    expect(matchesTokenDigest(OTHER_STAFF_TOKEN, digests)).toBe(true);
    expect(matchesTokenDigest(`${STAFF_TOKEN}x`, digests)).toBe(false);
    expect(matchesTokenDigest(sha256(STAFF_TOKEN), digests)).toBe(false);
    expect(matchesTokenDigest(STAFF_TOKEN, [])).toBe(false);
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
      referrals: [{ fileName: 'referral-cardiac-mri.pdf', contentType: 'application/pdf', downloadUrl: expect.any(String) }],
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

  it('serves the referrals earlier versions kept in the database from storage, at their old links too', async () => {
    const chloe = await signIn(server.app, CHLOE.bookingKey, CHLOE.dateOfBirth, 'BOOKING_REQUEST');
    const [referral] = (await summaryOf(chloe, CHLOE.bookingKey)).referrals;
    expect(referral?.downloadUrl).toBe(`/api/secured/booking_requests/${CHLOE.bookingKey}/attachments/${referral?.id ?? ''}/download`);
    const since = await lastAuditId(server.db);
    const response = await chloe.get(referral?.downloadUrl ?? '');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="referral-cardiac-mri.pdf"/);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(Buffer.compare(response.rawPayload, readFileSync(join(REFERRALS, 'referral-cardiac-mri.pdf')))).toBe(0);
    expect((await auditSince(server.db, since)).map((row) => row.action)).toEqual(['attachment.downloaded']);
    // Nothing is left in the old table.
    expect(await server.db.query('select id from booking_request_referral')).toEqual([]);

    const old = await chloe.get(url(CHLOE.bookingKey, `/referrals/${referral?.id ?? ''}/download`));
    expect(old.statusCode).toBe(308);
    expect(old.headers.location).toBe(referral?.downloadUrl);

    const harriet = await signIn(server.app, HARRIET.bookingKey, HARRIET.dateOfBirth, 'BOOKING_REQUEST');
    const harrietsReferral = (await summaryOf(harriet, HARRIET.bookingKey)).referrals[0]?.id ?? '';
    const base = `/api/secured/booking_requests/${CHLOE.bookingKey}/attachments`;
    expect((await chloe.get(`${base}/${harrietsReferral}/download`)).statusCode).toBe(404);
    expect((await chloe.get(`${base}/${randomUUID()}/download`)).statusCode).toBe(404);
    expect((await chloe.get(`${base}/not-a-uuid/download`)).statusCode).toBe(400);
    expect((await chloe.get(url(CHLOE.bookingKey, '/referrals/not-a-uuid/download'))).statusCode).toBe(400);
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
