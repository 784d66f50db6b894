/**
 * Appointment statuses (docs/rules/appointments.md#bookings) as plain constants: no zod here, so the web app can use
 * them without loading the schemas.
 */

export const APPOINTMENT_STATUSES = [
  'BOOKED',
  'PENDING',
  'CONFIRMED',
  'CANCELED',
  'RESCHEDULED',
  'CHANGED',
  'REQUEST_RESCHEDULE',
  'EXPIRED',
  'EXPIRED_PATIENT',
  'DECLINED_BY_PATIENT',
  'REMOVED_BY_OPERATOR',
  'DELETED',
  'ON_HOLD',
  'CHECKED_IN',
] as const;
export type AppointmentStatus = (typeof APPOINTMENT_STATUSES)[number];

/** Statuses the patient cannot use: the web app sends them to /deny?status=… (docs/rules/patient-access.md#deny-page). */
export const DENIED_STATUSES: readonly AppointmentStatus[] = [
  'EXPIRED',
  'EXPIRED_PATIENT',
  'CANCELED',
  'DECLINED_BY_PATIENT',
  'REMOVED_BY_OPERATOR',
  'DELETED',
  'ON_HOLD',
];
