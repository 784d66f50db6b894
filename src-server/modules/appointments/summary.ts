import type { AppointmentStatus, AppointmentSummary } from '@contract/api/appointments';
import type { Queryable } from '../../db/connection';
import type { Clock } from '../../platform/clock';
import { notFound } from '../../platform/errors';
import { dueQuestionnaires, requiredDocument } from '../questionnaires/public';
import { DENIED_STATUSES } from '@contract/api/appointment-statuses';
import { CHANGEABLE, currentRows, maskedEmail, maskPhone, overallStatus } from './change-rules';
import { bookingPreparation, formDetailsOf } from '../booking/public';
import { sentDocuments } from '../attachments/public';
import type { BookingRow, createAppointmentsRepository } from './repository';

/**
 * A booking as its pages show it (the appointment page and the confirmation): its current
 * appointments with the preparation that knows what was done online, the clinic, the patient
 * (contacts masked) and what the patient may do. Split from service.ts, which changes bookings.
 */
export function createSummaries(repository: ReturnType<typeof createAppointmentsRepository>, clock: Clock) {
  async function load(q: Queryable, bookingKey: string): Promise<BookingRow[]> {
    const rows = await repository.bookingRows(bookingKey, q);
    // The session guard already matched this key; no rows means the booking was removed since.
    if (rows.length === 0) throw notFound('We could not find this appointment.');
    return rows;
  }

  async function summaryOf(q: Queryable, bookingKey: string): Promise<AppointmentSummary> {
    const rows = await load(q, bookingKey);
    const [settings, reasons] = [await repository.settings(q), await repository.cancelReasons(q)];
    const current = currentRows(rows);
    const first = current[0] as BookingRow;
    const status = overallStatus(current);
    const now = clock.now().getTime();
    const preparation = await bookingPreparation(q, bookingKey);
    const live = current.filter((row) => CHANGEABLE.has(row.status));
    return {
      bookingKey,
      status,
      pending: status === 'PENDING',
      walkInExam: current.find((row) => row.walk_in_exam !== null)?.walk_in_exam ?? null,
      appointments: current.map((row) => ({
        slug: row.id,
        examSlug: row.exam_slug,
        examName: row.exam_name,
        modalityName: row.modality_name,
        startsAt: new Date(row.starts_ms).toISOString(),
        endsAt: new Date(row.ends_ms).toISOString(),
        preparationNotes: preparation.get(row.exam_slug) ?? row.preparation_notes,
        status: row.status as AppointmentStatus,
      })),
      clinic: {
        slug: first.clinic_slug,
        name: first.clinic_name,
        address: `${first.street}, ${first.suburb} ${first.state} ${first.postcode}`,
        phone: first.phone,
        timeZone: first.time_zone,
        latitude: first.latitude,
        longitude: first.longitude,
        mapUrl: `https://www.google.com/maps/search/?api=1&query=${first.latitude},${first.longitude}`,
      },
      patient: {
        title: first.title,
        firstName: first.first_name,
        lastName: first.last_name,
        email: maskedEmail(first.email),
        contactNumber: maskPhone(first.contact_number),
      },
      confirmed: current.some((row) => row.status === 'CONFIRMED' || row.confirmed),
      canConfirm: live.length > 0 && live.every((row) => row.status === 'BOOKED' && row.starts_ms > now),
      emailUnsubscribed: first.email_unsubscribed,
      cancelReasons: reasons.map((label) => ({ label })),
      cancelQuestionnaireRequired: settings.cancel_questionnaire_required,
      priorMinutes: settings.prior_minutes,
      walkInRescheduleAllowed: settings.walk_in_reschedule_allowed,
      requiredDocument: await requiredDocument(q, { type: 'APPOINTMENT', key: bookingKey }),
      documents: await sentDocuments(q, { type: 'APPOINTMENT', key: bookingKey }),
      questionnairesDue: await dueQuestionnaires(
        q,
        { bookingKey, startsAt: new Date(first.starts_ms), live: !DENIED_STATUSES.includes(status) },
        clock.now(),
      ),
      formDetails: await formDetailsOf(q, bookingKey),
    };
  }

  return { load, summaryOf };
}
