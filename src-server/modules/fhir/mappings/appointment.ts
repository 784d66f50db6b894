import type { Appointment } from '@medplum/fhirtypes';
import type { AppointmentRow } from '../patients-repository';
import { PORTAL_SYSTEM } from './systems';

type AppointmentStatus = Appointment['status'];

/**
 * The portal's appointment statuses as FHIR's: a time that is still held is booked (asked to
 * reschedule or not), one waiting on the provider is pending, a moved, changed, expired, declined
 * or removed one is cancelled (its successor is an appointment of its own), a deleted one was
 * entered in error.
 */
export const FHIR_STATUS_OF: Readonly<Record<string, AppointmentStatus>> = {
  BOOKED: 'booked',
  CONFIRMED: 'booked',
  REQUEST_RESCHEDULE: 'booked',
  PENDING: 'pending',
  ON_HOLD: 'pending',
  CHECKED_IN: 'checked-in',
  CANCELED: 'cancelled',
  RESCHEDULED: 'cancelled',
  CHANGED: 'cancelled',
  EXPIRED: 'cancelled',
  EXPIRED_PATIENT: 'cancelled',
  DECLINED_BY_PATIENT: 'cancelled',
  REMOVED_BY_OPERATOR: 'cancelled',
  DELETED: 'entered-in-error',
};

/** The portal's statuses that are each FHIR status (for the status search). */
export function portalStatusesOf(fhirStatus: string): string[] {
  // R4 statuses no portal appointment has (proposed, arrived…) find nothing.
  return Object.entries(FHIR_STATUS_OF)
    .filter(([, status]) => status === fhirStatus)
    .map(([portal]) => portal);
}

/** An appointment (one exam at one time) as an R4 Appointment (docs/integration/fhir.md#appointment). */
export function toAppointment(row: AppointmentRow): Appointment {
  const start = new Date(row.start);
  const end = new Date(row.end);
  return {
    resourceType: 'Appointment',
    id: row.id,
    meta: { lastUpdated: new Date(row.updated_at).toISOString() },
    status: FHIR_STATUS_OF[row.status] ?? 'booked',
    serviceType: [{ coding: [{ system: `${PORTAL_SYSTEM}/exam-code`, code: row.exam_code, display: row.exam_name }], text: row.exam_name }],
    description: `${row.exam_name} at ${row.clinic_name}`,
    start: start.toISOString(),
    end: end.toISOString(),
    minutesDuration: Math.round((end.getTime() - start.getTime()) / 60_000),
    created: new Date(row.created_at).toISOString(),
    participant: [
      { actor: { reference: `Patient/${row.patient_id}` }, required: 'required', status: 'accepted' },
      { actor: { reference: `Location/${row.clinic_id}`, display: row.clinic_name }, required: 'required', status: 'accepted' },
      { actor: { reference: `HealthcareService/${row.exam_id}`, display: row.exam_name }, required: 'required', status: 'accepted' },
      ...(row.referring_doctor_id === null
        ? []
        : [
            {
              type: [
                { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-ParticipationType', code: 'REF', display: 'referrer' }] },
              ],
              actor: { reference: `Practitioner/${row.referring_doctor_id}` },
              required: 'information-only' as const,
              status: 'accepted' as const,
            },
          ]),
    ],
  };
}
