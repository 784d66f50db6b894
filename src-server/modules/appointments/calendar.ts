import type { AppointmentSummary } from '@contract/api/appointments';
import type { Clock } from '../../platform/clock';
import { notFound } from '../../platform/errors';
import { localDate } from '../../platform/time-zone';
import { bookingConfirmationIcs, ICS_CONTENT_TYPE } from '../notifications/public';
import { CHANGEABLE } from './change-rules';

/**
 * "Add to calendar" on the confirmation and the appointment page (docs/rules/booking.md#add-to-calendar):
 * the same RFC 5545 file the confirmation mail attaches (notifications/ics.ts: UID, DTSTAMP,
 * DTSTART/DTEND in UTC, SUMMARY, LOCATION with the clinic's address, DESCRIPTION with the
 * preparation, escaped and folded), built from the booking as its page shows it now, so a
 * reschedule or an upload since the mail is in it.
 */

export interface CalendarFile {
  filename: string;
  contentType: string;
  content: string;
}

export function bookingCalendar(
  summary: AppointmentSummary,
  options: { publicUrl: string; providerName: string; clock: Clock; locale?: string },
): CalendarFile {
  const live = summary.appointments.filter((appointment) => CHANGEABLE.has(appointment.status) || appointment.status === 'CHECKED_IN');
  const first = live[0];
  if (first === undefined) throw notFound('This booking has no coming appointment to add to a calendar.');
  const ics = bookingConfirmationIcs(
    {
      bookingKey: summary.bookingKey,
      // The mail's greeting needs these; the calendar file does not carry them.
      patient: { firstName: summary.patient.firstName, lastName: summary.patient.lastName, email: '' },
      clinic: {
        name: summary.clinic.name,
        address: summary.clinic.address,
        phone: summary.clinic.phone,
        timeZone: summary.clinic.timeZone,
      },
      appointments: live.map((appointment) => ({
        examName: appointment.examName,
        modalityName: appointment.modalityName,
        startsAt: appointment.startsAt,
        endsAt: appointment.endsAt,
        ...(appointment.preparationNotes.trim() === '' ? {} : { preparationNotes: appointment.preparationNotes }),
      })),
      ...(summary.walkInExam === null ? {} : { walkInExam: summary.walkInExam }),
      staffBooking: false,
      pending: summary.pending,
    },
    options,
  );
  // The day as the clinic reads it, so the file's name says when it is for.
  const day = localDate(new Date(first.startsAt), summary.clinic.timeZone);
  return { filename: `appointment-${day}.ics`, contentType: ICS_CONTENT_TYPE, content: ics };
}
