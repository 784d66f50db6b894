import { z } from 'zod';
import { ReferringDoctorSchema } from './referring-doctors';
import { isValidMedicareNumber, isValidMedicareReference } from '../medicare';
import { InstantSchema, isValidCalendarDate } from './booking';
import { singleLineText } from './text';

/**
 * Digital check-in (docs/rules/check-in.md): the appointment's check-in status (what the page
 * polls), the form, and its answers. Every call needs the APPOINTMENT session of the booking (or
 * staff), 401 otherwise, 404 for an appointment of another booking.
 */

export const CHECK_IN_MESSAGES = {
  referrer: 'Choose the doctor who referred you.',
  dateOfReferral: 'Enter the date on your referral; it cannot be in the future.',
  medicareNumber: 'Enter the 10-digit number on your Medicare card.',
  referenceNumber: 'Enter your number on the Medicare card (1 to 9, left of your name).',
  gender: 'Choose an option.',
} as const;

export const GENDERS = ['FEMALE', 'MALE', 'OTHER'] as const;

export const CheckInFormSchema = z.strictObject({
  /** The referring doctor's id (from the doctor search). */
  referrer: z.uuid(CHECK_IN_MESSAGES.referrer),
  dateOfReferral: z.string().refine(isValidCalendarDate, CHECK_IN_MESSAGES.dateOfReferral),
  medicareNumber: z.string().max(20).refine(isValidMedicareNumber, CHECK_IN_MESSAGES.medicareNumber),
  referenceNumber: z.string().max(2).refine(isValidMedicareReference, CHECK_IN_MESSAGES.referenceNumber),
  /** Only when the status says showGenderSelection. */
  gender: z.enum(GENDERS, CHECK_IN_MESSAGES.gender).optional(),
});
export type CheckInForm = z.infer<typeof CheckInFormSchema>;

export const CheckInParamsSchema = z.strictObject({ bookingKey: singleLineText(), appointmentSlug: z.uuid() });

/**
 * Where the hand-off to the clinic's system stands: NOT_STARTED; PREPARING (the form is on its
 * way); PREPARED (the clinic has it: check in now); CHECKING_IN; CHECKED_IN; FAILED (the clinic's
 * system could not take it: the error step, the desk helps).
 */
export const CHECK_IN_STATES = ['NOT_STARTED', 'PREPARING', 'PREPARED', 'CHECKING_IN', 'CHECKED_IN', 'FAILED'] as const;
export type CheckInState = (typeof CHECK_IN_STATES)[number];

/**
 * Check-in readiness (docs/rules/check-in.md#digital-check-in): message null when ready
 * (message.unknown_reason stands in when not ready without one).
 */
export const CheckInReadinessSchema = z.object({
  ready: z.boolean(),
  requiredReferralUploaded: z.boolean(),
  /** The document type to upload when a referral is missing. */
  documentTypeId: z.string().nullable(),
  message: z.string().nullable(),
});
export type CheckInReadiness = z.infer<typeof CheckInReadinessSchema>;

export const CheckInStatusSchema = z.object({
  appointmentSlug: z.string(),
  /** The provider and the exam take digital check-in. */
  enabled: z.boolean(),
  /** Check-in opens priorMinutes before the start (opensAt) and closes at the start (closesAt). */
  priorMinutes: z.number().int(),
  opensAt: InstantSchema,
  closesAt: InstantSchema,
  windowOpen: z.boolean(),
  readiness: CheckInReadinessSchema,
  simpleMode: z.boolean(),
  showGenderSelection: z.boolean(),
  state: z.enum(CHECK_IN_STATES),
  checkInPrepared: z.boolean(),
  checkInPreparedSent: z.boolean(),
  checkInSent: z.boolean(),
  checkInSuccess: z.boolean(),
  /**
   * What the referral upload recorded, for the form to start from (still editable): its date,
   * and the referring doctor when the name matches exactly one doctor of the directory.
   */
  prefill: z
    .object({
      dateOfReferral: z.iso.date().nullable(),
      referrer: ReferringDoctorSchema.nullable(),
      /** The name as typed at the upload (shown when no doctor matched). */
      referringDoctorName: z.string().nullable(),
    })
    .optional(),
});
export type CheckInStatus = z.infer<typeof CheckInStatusSchema>;

/** 409 details when check-in is asked for outside its window (message.late_enable_digital_check_in_error). */
export const CheckInWindowErrorSchema = z.object({ priorMinutes: z.number().int(), opensAt: InstantSchema });
