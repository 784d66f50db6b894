import { z } from 'zod';
import { APPOINTMENT_STATUSES } from './appointment-statuses';
import { IsoDateSchema } from './common';

/**
 * The front desk's confirmation list (docs/rules/staff-appointments.md): one clinic's appointments
 * on one day of the clinic's calendar, in time order, each with how the patient answered the
 * reminder. Staff and admins; every read is audited.
 *
 * GET /api/staff/appointments?clinic=<slug>&date=YYYY-MM-DD (both optional: the first clinic, and
 * tomorrow in the clinic's zone).
 */
export const STAFF_APPOINTMENTS_PATH = '/api/staff/appointments';
/**
 * POST {STAFF_REMINDERS_PATH}/{appointmentId}: send an appointment's reminder now (a patient who did
 * not get it); staff, admin; audited. Not under /api/staff/appointments/: its bookingKey routes
 * (the consent signatures) hold that place in the path.
 */
export const STAFF_REMINDERS_PATH = '/api/staff/appointment-reminders';
export const StaffReminderParamsSchema = z.strictObject({ appointmentId: z.uuid('appointmentId must be a UUID') });
/** What went: the mail (false: no address, or unsubscribed) and the SMS (false: SMS off, or no number). */
export const StaffReminderSentSchema = z.object({ email: z.boolean(), sms: z.boolean() });
export type StaffReminderSent = z.infer<typeof StaffReminderSentSchema>;

export const STAFF_APPOINTMENTS_MESSAGES = {
  clinic: 'The clinic must be a clinic slug (a-z, 0-9, -), e.g. parramatta.',
  date: 'The date must be a calendar date as YYYY-MM-DD, e.g. 2026-03-18.',
  unknownClinic: 'No clinic has this slug.',
} as const;

/** A real calendar day: 2026-02-30 has the shape but is no day. */
function isCalendarDate(value: string): boolean {
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

export const StaffAppointmentsQuerySchema = z.strictObject({
  clinic: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,99}$/, STAFF_APPOINTMENTS_MESSAGES.clinic)
    .optional(),
  date: IsoDateSchema.refine(isCalendarDate, STAFF_APPOINTMENTS_MESSAGES.date).optional(),
});
export type StaffAppointmentsQuery = z.infer<typeof StaffAppointmentsQuerySchema>;

/**
 * How the patient answered, read from the change log (appointment_change): the reminder mail's
 * link, an SMS reply, the appointment page; a cancellation by the provider's side is the clinic's.
 * `none`: not confirmed nor cancelled yet, the ones the desk calls.
 */
export const REMINDER_ANSWERS = [
  'none',
  'confirmedByEmail',
  'confirmedBySms',
  'confirmedOnPage',
  'cancelledByEmail',
  'cancelledBySms',
  'cancelledOnPage',
  'cancelledByClinic',
] as const;
export type ReminderAnswer = (typeof REMINDER_ANSWERS)[number];

export const REMINDER_CHANNELS = ['email', 'sms'] as const;
export type ReminderChannel = (typeof REMINDER_CHANNELS)[number];

export const StaffAppointmentSchema = z.object({
  id: z.uuid(),
  startsAt: z.iso.datetime({ offset: true }),
  /** The clinic's wall-clock start, HH:MM. */
  localTime: z.string(),
  title: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  /** The booking's phone number as the patient gave it; null when none. */
  phone: z.string().nullable(),
  examName: z.string(),
  status: z.enum(APPOINTMENT_STATUSES),
  /** Still holds its time; false for a cancelled one (its time is free again). */
  live: z.boolean(),
  answer: z.enum(REMINDER_ANSWERS),
  answeredAt: z.iso.datetime({ offset: true }).nullable(),
  /** The channels a reminder went by for this booking (none: no reminder has gone yet). */
  reminders: z.array(z.enum(REMINDER_CHANNELS)),
});
export type StaffAppointment = z.infer<typeof StaffAppointmentSchema>;

export const StaffAppointmentClinicSchema = z.object({ slug: z.string(), name: z.string(), timeZone: z.string() });
export type StaffAppointmentClinic = z.infer<typeof StaffAppointmentClinicSchema>;

export const StaffAppointmentListSchema = z.object({
  /** The clinic and the day listed (the defaults filled in). */
  clinic: StaffAppointmentClinicSchema,
  date: IsoDateSchema,
  /** Every clinic, in the provider's order, for the clinic choice. */
  clinics: z.array(StaffAppointmentClinicSchema),
  /** The day's appointments by start, then patient name. */
  items: z.array(StaffAppointmentSchema),
});
export type StaffAppointmentList = z.infer<typeof StaffAppointmentListSchema>;
