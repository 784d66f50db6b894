import { z } from 'zod';
import { isValidCalendarDate, NAME_PATTERN, PATIENT_MESSAGES, PATIENT_TITLES } from './booking';

/**
 * Staff look up a patient who booked before, to book for them again without typing everything
 * (docs/rules/booking.md#patient-lookup): POST, so names, dates of birth and contacts never sit in
 * an address, a proxy log or the browser history. Staff-only (STAFF_BOOKING_ROLES), every lookup
 * audited, and limited per staff member (PATIENT_LOOKUP_LIMITS).
 */
export const PATIENT_LOOKUP_PATH = '/api/staff/patient-lookup';

/** At most this many people are answered; a search finding more asks for a narrower one. */
export const PATIENT_LOOKUP_MAX_RESULTS = 10;

/**
 * Per staff member: a burst of lookups in ten minutes, and a day's total. A booking team member
 * books perhaps 60 patients a day; the limits stop a stolen session from walking the patient list.
 */
export const PATIENT_LOOKUP_LIMITS = {
  perTenMinutes: 30,
  perDay: 300,
} as const;

export const PATIENT_LOOKUP_MESSAGES = {
  lastName: PATIENT_MESSAGES.lastName,
  firstName: PATIENT_MESSAGES.firstName,
  dateOfBirth: PATIENT_MESSAGES.dateOfBirth,
  phone: 'Please enter the phone number with at least 8 digits.',
  email: PATIENT_MESSAGES.email,
  tooMany: 'Too many patient lookups from your account. Please wait before searching again.',
} as const;

const name = (message: string) => z.string().trim().min(1, message).max(100, message).regex(NAME_PATTERN, message);

export const PatientLookupRequestSchema = z.discriminatedUnion('by', [
  z.strictObject({
    by: z.literal('name'),
    lastName: name(PATIENT_LOOKUP_MESSAGES.lastName),
    /** Optional: narrows by the start of the first name ("Pri" finds Priya). */
    firstName: name(PATIENT_LOOKUP_MESSAGES.firstName).optional(),
    dateOfBirth: z.string().refine(isValidCalendarDate, PATIENT_LOOKUP_MESSAGES.dateOfBirth),
  }),
  z.strictObject({
    by: z.literal('phone'),
    // As people type it: spaces, brackets, dashes and a leading + are ignored; 8 to 15 digits.
    phone: z
      .string()
      .max(30, PATIENT_LOOKUP_MESSAGES.phone)
      .regex(/^\+?[\d\s().-]+$/, PATIENT_LOOKUP_MESSAGES.phone)
      .refine((value) => {
        const digits = value.replace(/\D/g, '').length;
        return digits >= 8 && digits <= 15;
      }, PATIENT_LOOKUP_MESSAGES.phone),
  }),
  z.strictObject({
    by: z.literal('email'),
    email: z
      .string()
      .trim()
      .max(254, PATIENT_LOOKUP_MESSAGES.email)
      .pipe(z.email({ message: PATIENT_LOOKUP_MESSAGES.email })),
  }),
]);
export type PatientLookupRequest = z.infer<typeof PatientLookupRequestSchema>;

/** One person found: the details the booking form takes, and their latest booking to tell namesakes apart. */
export const FoundPatientSchema = z.object({
  title: z.enum(PATIENT_TITLES).nullable(),
  firstName: z.string(),
  lastName: z.string(),
  dateOfBirth: z.string(),
  email: z.string(),
  contactNumber: z.string(),
  postalCode: z.string(),
  /** Their latest appointment (past or future), or null when they only made booking requests. */
  lastAppointment: z.object({ startsAt: z.iso.datetime({ offset: true }), examName: z.string(), clinicName: z.string() }).nullable(),
});
export type FoundPatient = z.infer<typeof FoundPatientSchema>;

export const PatientLookupResponseSchema = z.object({
  patients: z.array(FoundPatientSchema).max(PATIENT_LOOKUP_MAX_RESULTS),
  /** More people matched than were answered: the search should be narrower. */
  more: z.boolean(),
});
export type PatientLookupResponse = z.infer<typeof PatientLookupResponseSchema>;
