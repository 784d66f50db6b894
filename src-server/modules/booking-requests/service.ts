import { attachmentsBasePath } from '@contract/api/attachments';
import { PREFERRED_TIMES, type PreferredTime } from '@contract/api/booking';
import {
  CHAT_SERVICE_MESSAGES,
  type BookingRequestStatus,
  type BookingRequestSummary,
  type ChatServiceEvent,
} from '@contract/api/booking-requests';
import type { Database } from '../../db/connection';
import type { Clock } from '../../platform/clock';
import { appError, notFound } from '../../platform/errors';
import { sanitizeOptionalHtml } from '../../platform/html-sanitizer';
import { requiredDocument } from '../questionnaires/public';
import { markBookedByChatService } from '../staff-booking-requests/public';
import { createBookingRequestsRepository, type RequestRow } from './repository';

/**
 * Booking requests (docs/rules/appointments.md#booking-requests): the patient's summary (its referrals are attachments), cancel, and the staff
 * status change. A request is every booking_request row sharing one booking key (one per exam).
 */

export interface BookingRequestsServiceDeps {
  db: Database;
  clock: Clock;
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
    const referrals = await repository.referrals(bookingKey);
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
      referrals: referrals.map((referral) => ({
        id: referral.id,
        fileName: referral.file_name,
        contentType: referral.content_type,
        downloadUrl: `${attachmentsBasePath('booking_requests', bookingKey)}/${referral.id}/download`,
      })),
      bookingInfoHtml: sanitizeOptionalHtml(await repository.bookingInfoHtml()),
      requiredDocument: await requiredDocument(db, { type: 'BOOKING_REQUEST', key: bookingKey }),
      // One request is made in one place: its rows share channel and times (docs/rules/chat.md).
      channel: first.channel,
      preferredTimes: first.preferred_times.filter((time): time is PreferredTime => (PREFERRED_TIMES as readonly string[]).includes(time)),
      screeningByPhone: rows.some((row) => row.screening_by_phone),
      type: rows.some((row) => row.status !== 'CANCELED' && row.type === 'CHAT') ? 'CHAT' : 'PATIENT',
      bookedByChatService: first.booked_by_chat_service,
    };
  }

  /**
   * The provider's chat service's conversation about the request (docs/rules/chat.md#the-providers-chat-service):
   * started sets its type CHAT; ended with the booking-complete message marks it booked by the chat
   * service, else sets its type back to PATIENT for the booking team. Once booked, nothing changes it.
   */
  async function chatServiceEvent(bookingKey: string, event: ChatServiceEvent): Promise<BookingRequestSummary> {
    await db.transaction(async (tx) => {
      if (!(await repository.chatServiceConfigured(tx))) throw appError('conflict', 409, CHAT_SERVICE_MESSAGES.off);
      const rows = await repository.lockRows(bookingKey, tx);
      const first = rows[0];
      if (first === undefined) throw notFound('We could not find this booking request.');
      if (overall(rows) === 'CANCELED') throw appError('conflict', 409, CHAT_SERVICE_MESSAGES.cancelled);
      if (first.booked_by_chat_service) return;
      const now = clock.now();
      const audit = (action: string, details: Record<string, unknown>) =>
        repository.audit({ actor: 'patient', action, subjectId: first.id, details, now }, tx);
      if (event.event === 'started') {
        if ((await repository.setType(bookingKey, 'CHAT', tx)).length > 0) await audit('booking_request.chat_started', {});
      } else if (event.bookingComplete) {
        await repository.setType(bookingKey, 'CHAT', tx);
        const marked = await markBookedByChatService(tx, bookingKey, now);
        await audit('booking_request.chat_ended', { bookingComplete: true, markedHandled: marked });
      } else {
        await repository.setType(bookingKey, 'PATIENT', tx);
        await audit('booking_request.chat_ended', { bookingComplete: false });
      }
    });
    return summary(bookingKey);
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

    chatServiceEvent,

    staffSetStatus: (bookingKey: string, status: BookingRequestStatus): Promise<BookingRequestSummary> =>
      setStatus(bookingKey, status, 'staff'),
  };
}

export type BookingRequestsService = ReturnType<typeof createBookingRequestsService>;
