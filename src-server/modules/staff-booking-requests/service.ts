import { attachmentsBasePath } from '@contract/api/attachments';
import {
  STAFF_BOOKING_REQUEST_LIST_CAPS,
  STAFF_BOOKING_REQUEST_MESSAGES,
  type MarkBookingRequestHandled,
  type StaffBookingRequest,
  type StaffBookingRequestList,
} from '@contract/api/staff-booking-requests';
import { createAuditLogRepository } from '../../db/audit-log';
import type { Database } from '../../db/connection';
import type { Clock } from '../../platform/clock';
import { conflict, notFound } from '../../platform/errors';
import { queueListedEntry, queueMarkedEntry, queueNote } from '../../platform/staff-queue-audit';
import { formDetailsOfMany } from '../booking/public';
import { createStaffBookingRequestsRepository, type ExamRow, type QueueRow, type ReferralFileRow } from './repository';

/**
 * The staff queue of booking requests (docs/rules/booking.md#the-staff-queue): the booking team
 * reads each request whole (exams, clinic, patient, payment and background answers, referrals)
 * and marks it handled once arranged. Audit rows name who and what, never the patient.
 */
export function createStaffBookingRequests(deps: { db: Database; clock: Clock }) {
  const repository = createStaffBookingRequestsRepository(deps.db);
  const audit = createAuditLogRepository(deps.db);

  return {
    async list(staffRef: string): Promise<StaffBookingRequestList> {
      const { rows, openTotal } = await repository.queue(STAFF_BOOKING_REQUEST_LIST_CAPS);
      const keys = rows.map((row) => row.booking_key);
      const [exams, referrals, formDetails] = await Promise.all([
        repository.exams(keys),
        repository.referrals(keys),
        formDetailsOfMany(deps.db, keys),
      ]);
      const items = rows.flatMap((row) => {
        const own = exams.filter((exam) => exam.booking_key === row.booking_key);
        const files = referrals.filter((file) => file.booking_key === row.booking_key);
        const item = toItem(row, own, files);
        return item === null ? [] : [{ ...item, formDetails: formDetails.get(row.booking_key) ?? null }];
      });
      await audit.record(
        queueListedEntry(staffRef, 'staff_booking_requests_listed', { listed: items.length, open: openTotal }, deps.clock.now()),
      );
      return { items, openTotal };
    },

    /** Marks a request handled (404 unknown, 409 already handled or cancelled); the note stays on the request, not in the audit. */
    async markHandled(staff: { ref: string; name: string }, bookingKey: string, body: MarkBookingRequestHandled): Promise<void> {
      const now = deps.clock.now();
      const note = queueNote(body.note);
      const marked = await repository.markHandled(bookingKey, { at: now, byRef: staff.ref, byName: staff.name, note });
      if (marked === null) throw notFound(STAFF_BOOKING_REQUEST_MESSAGES.notFound);
      const { outcome, requestId } = marked;
      if (outcome === 'already') throw conflict(STAFF_BOOKING_REQUEST_MESSAGES.alreadyHandled);
      if (outcome === 'cancelled') throw conflict(STAFF_BOOKING_REQUEST_MESSAGES.cancelled);
      // The row id, never the booking key (it grants the patient's access).
      await audit.record(queueMarkedEntry(staff.ref, 'booking_request_handled', { type: 'booking_request', id: requestId }, note, now));
    },
  };
}

export type StaffBookingRequests = ReturnType<typeof createStaffBookingRequests>;

const iso = (value: Date | string): string => new Date(value).toISOString();

function toItem(
  row: QueueRow,
  exams: readonly ExamRow[],
  files: readonly ReferralFileRow[],
): Omit<StaffBookingRequest, 'formDetails'> | null {
  const first = exams[0];
  if (first === undefined) return null;
  const base = attachmentsBasePath('booking_requests', row.booking_key);
  return {
    bookingKey: row.booking_key,
    receivedAt: iso(row.received_at),
    exams: exams.map((exam) => `${exam.modality_name} - ${exam.exam_name}`),
    clinicName: first.clinic_name,
    patient: {
      name: [first.title, first.first_name, first.last_name].filter(Boolean).join(' '),
      dateOfBirth: first.date_of_birth,
      email: first.email,
      phone: first.contact_number,
      postcode: first.postcode,
    },
    patientNotes: first.patient_notes,
    channel: first.channel,
    // The exams of one request share their times (one conversation); the row is checked by the table's constraint.
    preferredTimes: first.preferred_times as StaffBookingRequest['preferredTimes'],
    screeningByPhone: exams.some((exam) => exam.screening_by_phone),
    referrals: files.map((file) => ({ fileName: file.file_name, downloadUrl: `${base}/${file.id}/download` })),
    status: row.handled_at !== null ? 'handled' : row.live ? 'open' : 'cancelled',
    withChatService: row.with_chat_service,
    handledAt: row.handled_at === null ? null : iso(row.handled_at),
    handledBy: row.handled_by_name,
    note: row.note,
  };
}
