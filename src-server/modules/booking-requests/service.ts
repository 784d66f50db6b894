import { createHash, timingSafeEqual } from 'node:crypto';
import type { BookingRequestStatus, BookingRequestSummary } from '@contract/api/booking-requests';
import type { Database } from '../../db/connection';
import type { Clock } from '../../platform/clock';
import { detectImageType } from '../../platform/content-type';
import { notFound } from '../../platform/errors';
import { sanitizeOptionalHtml } from '../../platform/html-sanitizer';
import { requiredDocument } from '../questionnaires/public';
import { createBookingRequestsRepository, type RequestRow } from './repository';

/**
 * Booking requests (docs/rules/self-service.md#booking-requests): the patient's summary, cancel, referral downloads, and the staff
 * status change. A request is every booking_request row sharing one booking key (one per exam).
 */

export interface BookingRequestsServiceDeps {
  db: Database;
  clock: Clock;
}

/** Content type from the bytes, never the name (docs/rules/security.md#files): PDF, a safe image, else a plain download. */
export function referralContentType(bytes: Uint8Array): string {
  const pdf = [0x25, 0x50, 0x44, 0x46, 0x2d]; // %PDF-
  if (bytes.length >= pdf.length && pdf.every((byte, index) => bytes[index] === byte)) return 'application/pdf';
  const image = detectImageType(bytes);
  // An SVG is a document that can carry links and styles: never offered as an image here.
  if (image !== null && image !== 'image/svg+xml') return image;
  return 'application/octet-stream';
}

const EXTENSIONS: Record<string, string> = {
  'application/pdf': 'pdf',
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/x-icon': 'ico',
};

/**
 * A download name safe in a Content-Disposition header and on any file system: the last path
 * part, letters, digits, '.', '-', '_' and spaces only, no leading dot, at most 100 characters,
 * with the extension of the detected type (a .html name on PDF bytes becomes .pdf).
 */
export function safeFileName(name: string, contentType: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  let cleaned = base
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/[^A-Za-z0-9._ -]+/g, '_')
    .replace(/\s+/g, ' ')
    .replace(/^[.\s_-]+/, '')
    .trim();
  const extension = EXTENSIONS[contentType];
  const stem = cleaned.replace(/\.[A-Za-z0-9]{1,8}$/, '');
  cleaned = (stem === '' ? 'referral' : stem).slice(0, 90);
  return extension === undefined ? (cleaned.endsWith('.bin') ? cleaned : `${cleaned}.bin`) : `${cleaned}.${extension}`;
}

/**
 * Whether a bearer token is one of the configured staff tokens: its sha256 is compared with every
 * configured digest in constant time (no early exit, so the timing does not tell which matched).
 */
export function isStaffToken(token: string, digests: readonly string[]): boolean {
  const presented = createHash('sha256').update(token, 'utf8').digest();
  let match = false;
  for (const digest of digests) {
    const expected = Buffer.from(digest, 'hex');
    if (expected.length === presented.length && timingSafeEqual(expected, presented)) match = true;
  }
  return match;
}

function overall(rows: readonly RequestRow[]): BookingRequestStatus {
  return rows.some((row) => row.status === 'BOOKED') ? 'BOOKED' : 'CANCELED';
}

export function createBookingRequestsService(deps: BookingRequestsServiceDeps) {
  const { db, clock } = deps;
  const repository = createBookingRequestsRepository(db);

  async function summary(bookingKey: string): Promise<BookingRequestSummary> {
    const rows = await repository.rows(bookingKey);
    const first = rows[0];
    if (first === undefined) throw notFound('We could not find this booking request.');
    const referrals = await repository.referralHeads(bookingKey);
    return {
      bookingKey,
      status: overall(rows),
      patientNotes: first.patient_notes,
      bookingDetails: {
        exams: rows.map((row) => ({
          name: row.exam_name,
          nameWithModality: `${row.modality_name} - ${row.exam_name}`,
          slug: row.exam_slug,
        })),
        clinicName: first.clinic_name,
      },
      patientDetails: {
        title: first.title,
        firstName: first.first_name,
        lastName: first.last_name,
        dateOfBirth: first.date_of_birth,
        email: first.email,
        contactNumber: first.contact_number,
        postalCode: first.postcode,
      },
      referrals: referrals.map((referral) => {
        const contentType = referralContentType(new Uint8Array(referral.head));
        return { id: referral.id, fileName: safeFileName(referral.file_name, contentType), contentType };
      }),
      bookingInfoHtml: sanitizeOptionalHtml(await repository.bookingInfoHtml()),
      requiredDocument: await requiredDocument(db, { type: 'BOOKING_REQUEST', key: bookingKey }),
    };
  }

  async function setStatus(bookingKey: string, status: BookingRequestStatus, actor: 'patient' | 'staff'): Promise<BookingRequestSummary> {
    await db.transaction(async (tx) => {
      const rows = await repository.lockRows(bookingKey, tx);
      if (rows.length === 0) throw notFound('We could not find this booking request.');
      const changed = await repository.setStatus(bookingKey, status, tx);
      // Cancelling twice (a double click) changes nothing and logs nothing.
      if (changed.length === 0) return;
      await repository.audit(
        {
          actor,
          action: status === 'CANCELED' ? 'booking_request.cancelled' : 'booking_request.status_changed',
          subjectId: changed.join(','),
          details: { from: overall(rows), to: status },
          now: clock.now(),
        },
        tx,
      );
    });
    return summary(bookingKey);
  }

  return {
    summary,

    cancel: (bookingKey: string): Promise<BookingRequestSummary> => setStatus(bookingKey, 'CANCELED', 'patient'),

    staffSetStatus: (bookingKey: string, status: BookingRequestStatus): Promise<BookingRequestSummary> =>
      setStatus(bookingKey, status, 'staff'),

    async referral(bookingKey: string, id: string): Promise<{ fileName: string; contentType: string; content: Uint8Array }> {
      const row = await repository.referral(bookingKey, id);
      if (row === null) throw notFound('We could not find this referral.');
      const content = new Uint8Array(row.content);
      const contentType = referralContentType(content);
      await repository.audit({
        actor: 'patient',
        action: 'booking_request.referral_downloaded',
        subjectId: row.id,
        details: { contentType },
        now: clock.now(),
      });
      return { fileName: safeFileName(row.file_name, contentType), contentType, content };
    },
  };
}

export type BookingRequestsService = ReturnType<typeof createBookingRequestsService>;
