import { z } from 'zod';
import { BookingFormDetailsViewSchema } from './booking-form-details';
import {
  ExamSlugListSchema,
  HoldParamsSchema,
  InstantSchema,
  isValidCalendarDate,
  PATIENT_MESSAGES,
  PostcodeSchema,
  SlugSchema,
} from './booking';
import { APPOINTMENT_STATUSES } from './appointment-statuses';
import { DueQuestionnairesSchema } from './questionnaires';
import { BookingKeySchema } from './patient-access';
import { multiLineText, singleLineText } from './text';

export { APPOINTMENT_STATUSES, DENIED_STATUSES } from './appointment-statuses';

/**
 * Appointment self-service (docs/rules/appointments.md):
 * the summary of a booking (every appointment sharing its booking key), cancel, reschedule or
 * change, request a reschedule, confirm, consent forms, details change requests, unsubscribe.
 * Every call needs a fully authenticated APPOINTMENT session for that booking key (401 otherwise).
 */

export const AppointmentStatusSchema = z.enum(APPOINTMENT_STATUSES);
export type AppointmentStatus = z.infer<typeof AppointmentStatusSchema>;

export const BookingKeyParamsSchema = z.strictObject({ bookingKey: BookingKeySchema });

export const AppointmentItemSchema = z.object({
  /** The appointment's id. */
  slug: z.string(),
  examSlug: z.string(),
  examName: z.string(),
  modalityName: z.string(),
  startsAt: InstantSchema,
  endsAt: InstantSchema,
  preparationNotes: z.string(),
  status: AppointmentStatusSchema,
});
export type AppointmentItem = z.infer<typeof AppointmentItemSchema>;

export const SummaryClinicSchema = z.object({
  slug: z.string(),
  name: z.string(),
  /** One line: street, suburb state postcode. */
  address: z.string(),
  phone: z.string(),
  timeZone: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  /** A map search link for the address (https). */
  mapUrl: z.string(),
});

/** A document the patient must bring (a questionnaire outcome set its type). */
export const RequiredDocumentSchema = z.object({ title: z.string(), description: z.string() });
export type RequiredDocument = z.infer<typeof RequiredDocumentSchema>;

/** A document the booking holds, by name only (its type's title, or null for "other", and the file name). */
export const SentDocumentSchema = z.object({ title: z.string().nullable(), fileName: z.string() });
export type SentDocument = z.infer<typeof SentDocumentSchema>;

export const AppointmentSummarySchema = z.object({
  bookingKey: z.string(),
  /** The booking's status: its current appointments' (they share one). */
  status: AppointmentStatusSchema,
  /** Waiting for the clinic to confirm (status PENDING). */
  pending: z.boolean(),
  walkInExam: z.object({ name: z.string(), prepTime: z.number().int(), minutesPrior: z.number().int() }).nullable(),
  /** The current appointments (after a reschedule: the new ones), in time order. */
  appointments: z.array(AppointmentItemSchema),
  clinic: SummaryClinicSchema,
  patient: z.object({
    title: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    /** Masked, e.g. "l***@example.com"; null when none. */
    email: z.string().nullable(),
    /** Masked, e.g. "*******006"; null when none. */
    contactNumber: z.string().nullable(),
  }),
  confirmed: z.boolean(),
  canConfirm: z.boolean(),
  emailUnsubscribed: z.boolean(),
  cancelReasons: z.array(z.object({ label: z.string() })),
  cancelQuestionnaireRequired: z.boolean(),
  /** Cancel and reschedule are allowed only while the start is more than this many minutes away. */
  priorMinutes: z.number().int(),
  walkInRescheduleAllowed: z.boolean(),
  /** The document a questionnaire outcome (SET_DOCUMENT_TYPE) asked the patient to bring, or null. */
  requiredDocument: RequiredDocumentSchema.nullable(),
  /** The documents sent with the booking (uploaded while booking or since), typed ones first; names only. */
  documents: z.array(SentDocumentSchema),
  /** The questionnaires to answer now (before the visit, or after it), each unanswered; empty when none. */
  questionnairesDue: DueQuestionnairesSchema,
  /**
   * Insurance, ethnicity and referring practice given while booking (docs/rules/booking.md#booking-form-details):
   * for the booking's signed-in patient and staff; null for the booking browser's receipt and when none were given.
   */
  formDetails: BookingFormDetailsViewSchema.nullable().optional(),
});
export type AppointmentSummary = z.infer<typeof AppointmentSummarySchema>;

// ---------------------------------------------------------------------------------------------
// GET /api/appointments/{bookingKey}/can-change?action=CANCEL|RESCHEDULE

export const CHANGE_ACTIONS = ['CANCEL', 'RESCHEDULE'] as const;
export const CanChangeQuerySchema = z.strictObject({ action: z.enum(CHANGE_ACTIONS) });
export type CanChangeQuery = z.infer<typeof CanChangeQuerySchema>;

/**
 * Why a change is refused: the booking is cancelled; the start is priorMinutes away or less;
 * a walk-in exam is part of it (reschedule only); OTHER: any other status (moved, expired,
 * checked in, on hold…).
 */
export const CHANGE_REFUSALS = ['PRIOR_MINUTES', 'APPOINTMENT_CANCELLED', 'WALK_IN', 'OTHER'] as const;
export const ChangeRefusalSchema = z.enum(CHANGE_REFUSALS);
export type ChangeRefusal = z.infer<typeof ChangeRefusalSchema>;

export const CanChangeResponseSchema = z.object({
  canChange: z.boolean(),
  reason: ChangeRefusalSchema.nullable(),
  priorMinutes: z.number().int(),
});
export type CanChangeResponse = z.infer<typeof CanChangeResponseSchema>;

/** details of a 409 change_not_allowed. */
export const ChangeNotAllowedDetailsSchema = z.object({ reason: ChangeRefusalSchema, priorMinutes: z.number().int() });
export type ChangeNotAllowedDetails = z.infer<typeof ChangeNotAllowedDetailsSchema>;

// ---------------------------------------------------------------------------------------------
// POST /api/appointments/{bookingKey}/cancel

export const CANCEL_NOTE_MAX = 500;
export const CancelRequestSchema = z.strictObject({
  /** One of the summary's cancelReasons; required when reasons are configured (and no questionnaire is). */
  reason: z.strictObject({ label: singleLineText().trim().min(1).max(200) }).optional(),
  note: multiLineText().trim().max(CANCEL_NOTE_MAX, `The note can be at most ${CANCEL_NOTE_MAX} characters.`).optional(),
});
export type CancelRequest = z.infer<typeof CancelRequestSchema>;

// ---------------------------------------------------------------------------------------------
// POST /api/appointments/{bookingKey}/reschedule  (header Idempotency-Key: a UUID)

export const RESCHEDULE_CONTEXTS = ['RESCHEDULED', 'CHANGED'] as const;
export const RescheduleRequestSchema = z.strictObject({
  /** RESCHEDULED: the same exams at another time; CHANGED: the exams may change too. */
  context: z.enum(RESCHEDULE_CONTEXTS),
  clinicSlug: SlugSchema,
  startsAt: InstantSchema,
  /** Default: the booking's exams. Only CHANGED may name other exams. */
  exams: ExamSlugListSchema.optional(),
  /** The patient's own hold on the new time (POST /api/booking/holds): the move takes its place. */
  holdId: HoldParamsSchema.shape.holdId.optional(),
  /**
   * CHANGED: the temporary key holding the answers to the new exams' questionnaires; those that can
   * refuse or change a booking must be answered, here or with the booking (400 questionnaire_required).
   */
  questionnaireKey: BookingKeySchema.optional(),
});
export type RescheduleRequest = z.infer<typeof RescheduleRequestSchema>;

// ---------------------------------------------------------------------------------------------
// POST /api/appointments/{bookingKey}/request-reschedule

export const RequestRescheduleSchema = z.strictObject({
  note: multiLineText().trim().max(CANCEL_NOTE_MAX, `The note can be at most ${CANCEL_NOTE_MAX} characters.`).optional(),
});
export type RequestReschedule = z.infer<typeof RequestRescheduleSchema>;

// ---------------------------------------------------------------------------------------------
// Consent forms: GET /api/appointments/{bookingKey}/consent-forms, PUT …/consent-forms/{id}

export const ConsentFormSchema = z.object({
  id: z.string(),
  title: z.string(),
  /** Sanitised HTML (the server's allow-list; the web sanitises again before rendering). */
  html: z.string(),
  signed: z.boolean(),
  signedName: z.string().nullable(),
  signedAt: InstantSchema.nullable(),
});
export type ConsentForm = z.infer<typeof ConsentFormSchema>;

export const ConsentFormsResponseSchema = z.object({
  appointmentConsentForms: z.array(ConsentFormSchema),
  /** Show the consent-form notification dialog (some forms are unsigned and the provider wants it). */
  notifyPatient: z.boolean(),
});
export type ConsentFormsResponse = z.infer<typeof ConsentFormsResponseSchema>;

export const ConsentFormParamsSchema = z.strictObject({
  bookingKey: BookingKeySchema,
  id: z.uuid({ message: 'expected a consent form id' }),
});

/** The drawn signature's limits (docs/rules/appointments.md#consent-forms); the server checks the content. */
export const SIGNATURE_MAX_BYTES = 200 * 1024;
export const SIGNATURE_MAX_WIDTH = 2000;
export const SIGNATURE_MAX_HEIGHT = 1000;
/** Base64 of SIGNATURE_MAX_BYTES plus a data: URL prefix. */
const SIGNATURE_MAX_CHARS = Math.ceil(SIGNATURE_MAX_BYTES / 3) * 4 + 'data:image/png;base64,'.length;

export const SignConsentFormSchema = z.strictObject({
  signedName: singleLineText().trim().min(1, 'Please type your full name to sign.').max(200, 'The name can be at most 200 characters.'),
  agreed: z.literal(true, { message: 'Please tick that you agree.' }),
  /** The signature drawn with a finger (the kiosk): a PNG, as base64 or a data: URL. Optional: the website signs by typed name. */
  signaturePng: z
    .string()
    .max(SIGNATURE_MAX_CHARS, 'The drawn signature is too large (at most 200 KB).')
    .regex(
      /^(data:image\/png;base64,)?[A-Za-z0-9+/]+={0,2}$/,
      'The drawn signature must be a PNG image, as base64 or a data:image/png URL.',
    )
    .optional(),
});
export type SignConsentForm = z.infer<typeof SignConsentFormSchema>;

// ---------------------------------------------------------------------------------------------
// POST /api/appointments/{bookingKey}/details-change-request  -> 201 { id }

const NAME_PATTERN = /^[\p{L}][\p{L}\p{M}' .-]*$/u;

/** The same field rules as the booking form (PatientDetailsSchema); at least one field. */
export const DetailsChangeRequestSchema = z
  .strictObject({
    firstName: z
      .string()
      .trim()
      .min(1, PATIENT_MESSAGES.firstName)
      .max(100, PATIENT_MESSAGES.firstName)
      .regex(NAME_PATTERN, PATIENT_MESSAGES.firstName)
      .optional(),
    lastName: z
      .string()
      .trim()
      .min(1, PATIENT_MESSAGES.lastName)
      .max(100, PATIENT_MESSAGES.lastName)
      .regex(NAME_PATTERN, PATIENT_MESSAGES.lastName)
      .optional(),
    dateOfBirth: z.string().refine(isValidCalendarDate, PATIENT_MESSAGES.dateOfBirth).optional(),
    email: z
      .string()
      .trim()
      .max(254, PATIENT_MESSAGES.email)
      .pipe(z.email({ message: PATIENT_MESSAGES.email }))
      .optional(),
    contactNumber: z
      .string()
      .regex(/^\d{1,10}$/, PATIENT_MESSAGES.contactNumber)
      .optional(),
    postcode: PostcodeSchema.optional(),
    note: multiLineText().trim().max(1000, 'The note can be at most 1000 characters.').optional(),
  })
  .refine((value) => Object.values(value).some((field) => field !== undefined && field !== ''), {
    message: 'Please change at least one detail.',
  });
export type DetailsChangeRequest = z.infer<typeof DetailsChangeRequestSchema>;

export const DetailsChangeResponseSchema = z.object({ id: z.string() });
export type DetailsChangeResponse = z.infer<typeof DetailsChangeResponseSchema>;
