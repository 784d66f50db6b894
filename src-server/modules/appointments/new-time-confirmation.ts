import type { AppointmentSummary } from '@contract/api/appointments';
import type { Queryable } from '../../db/connection';
import type { Clock } from '../../platform/clock';
import { confirmationClinic, queueBookingConfirmation } from '../notifications/public';
import { createAppointmentsRepository } from './repository';

/**
 * The confirmation of a booking's new time, mailed to its patient: after the patient moved it
 * (reschedule, change) and after the provider's system did (the RIS's SIU^S13). Nothing without an address.
 */

export interface NewTime {
  bookingKey: string;
  /** The booking as it now is (summaryOf, inside the move's transaction). */
  summary: AppointmentSummary;
  clinic: { name: string; street: string; suburb: string; state: string; postcode: string; phone?: string; time_zone: string };
  providerName: string;
}

export async function confirmNewTime(tx: Queryable, moved: NewTime, deps: { publicUrl: string; clock: Clock }): Promise<void> {
  const { bookingKey, summary, clinic } = moved;
  const patient = (await createAppointmentsRepository(tx).bookingRows(bookingKey, tx))[0];
  if (patient?.email === null || patient?.email === undefined || patient.email === '') return;
  await queueBookingConfirmation(
    tx,
    {
      bookingKey,
      patient: { title: patient.title, firstName: patient.first_name, lastName: patient.last_name, email: patient.email },
      clinic: confirmationClinic(clinic),
      appointments: summary.appointments.map((item) => ({
        examName: item.examName,
        modalityName: item.modalityName,
        startsAt: item.startsAt,
        endsAt: item.endsAt,
        ...(item.preparationNotes === '' ? {} : { preparationNotes: item.preparationNotes }),
      })),
      ...(summary.walkInExam === null ? {} : { walkInExam: summary.walkInExam }),
      staffBooking: false,
      pending: summary.status === 'PENDING',
    },
    { publicUrl: deps.publicUrl, providerName: moved.providerName, clock: deps.clock },
  );
}
