import { z } from 'zod';
import { ExamSlugListSchema, SlugSchema } from './booking';
import { commaSeparated } from './common';
import { BookingKeySchema } from './patient-access';
import { answersWithoutControlCharacters, CONTROL_CHARACTER_MESSAGE, singleLineText } from './text';

/**
 * Questionnaires (docs/rules/questionnaires.md). SurveyJS questionnaires stored per provider,
 * associated with modalities, exams or every booking (general). Before a booking exists, answers are
 * kept as TEMPORARY answers under a temporary booking key (from POST /api/questionnaires/booking-keys);
 * the booking call names that key (`questionnaireKey`) and the answers then belong to the appointment
 * or booking request. Outcomes are evaluated by the server against the STORED answers.
 */

export const QUESTIONNAIRE_TYPES = [
  'REQUIRED_ON_CONFIRMATION',
  'FEEDBACK',
  'DECLINE_APPOINTMENT',
  'CANCEL_APPOINTMENT_PATIENT',
  'CREATE_BOOKING_REQUEST',
  'CREATE_BOOKING_REQUEST_REFERRER',
  'PAIN_SCORE_INITIAL',
  'PAIN_SCORE_FINAL',
  'PROTOCOL',
  'BOOKING_FORM',
] as const;
export const QuestionnaireTypeSchema = z.enum(QUESTIONNAIRE_TYPES);
export type QuestionnaireType = z.infer<typeof QuestionnaireTypeSchema>;

/** Answered during the booking flow, before the booking exists (temporary answers). */
export const BOOKING_TIME_TYPES = [
  'BOOKING_FORM',
  'CREATE_BOOKING_REQUEST',
  'CREATE_BOOKING_REQUEST_REFERRER',
] as const satisfies readonly QuestionnaireType[];
/** Answered against an appointment (patient session of type APPOINTMENT). */
export const APPOINTMENT_TYPES = [
  'REQUIRED_ON_CONFIRMATION',
  'FEEDBACK',
  'DECLINE_APPOINTMENT',
  'CANCEL_APPOINTMENT_PATIENT',
  'PAIN_SCORE_INITIAL',
  'PAIN_SCORE_FINAL',
] as const satisfies readonly QuestionnaireType[];
export const PAIN_SCORE_TYPES = ['PAIN_SCORE_INITIAL', 'PAIN_SCORE_FINAL'] as const satisfies readonly QuestionnaireType[];
/** Answered against a booking request (patient session of type BOOKING_REQUEST). */
export const BOOKING_REQUEST_TYPES = ['PROTOCOL', 'REQUIRED_ON_CONFIRMATION'] as const satisfies readonly QuestionnaireType[];

export const QUESTIONNAIRE_ASSOCIATIONS = ['MODALITY', 'EXAM', 'GENERAL'] as const;
export const QuestionnaireAssociationSchema = z.enum(QUESTIONNAIRE_ASSOCIATIONS);
export type QuestionnaireAssociation = z.infer<typeof QuestionnaireAssociationSchema>;

export const MODAL_SIZES = ['sm', 'md', 'lg', 'xl'] as const;
export const ModalSizeSchema = z.enum(MODAL_SIZES);
export type ModalSize = z.infer<typeof ModalSizeSchema>;

/**
 * What an outcome does when its condition (a SurveyJS expression over the questionnaire's answers,
 * e.g. "{pacemaker} = 'yes'") is true. `result` means, per type:
 *  DENY_BOOKING / DENY_BOOKING_REQUEST: the message shown to the patient (booking refused);
 *  CREATE_BOOKING_REQUEST: a message; the web app makes a booking request instead of a booking;
 *  MEDICARE_NUMBER_REQUIRED, VALIDATION_CODE_REQUIRED: ignored (may be '');
 *  SET_DOCUMENT_TYPE: a document type code (answered as its id); SET_INSURANCE_TYPE: an insurance type code;
 *  REDIRECT: a URL (https://… or /path); WALK_IN_EXAM: a walk-in exam name of the exam's modality;
 *  CHANGE_EXAM: the slug of the exam that replaces the questionnaire's exam;
 *  RESTRICT_QUESTIONNAIRE: the id of a questionnaire that must be answered next;
 *  REVIEW_BOOKING: the message shown to the patient; the booking holds its time ON_HOLD until a
 *  radiographer approves or declines it (docs/rules/screening-review.md).
 */
export const OUTCOME_TYPES = [
  'DENY_BOOKING',
  'DENY_BOOKING_REQUEST',
  'CREATE_BOOKING_REQUEST',
  'MEDICARE_NUMBER_REQUIRED',
  'VALIDATION_CODE_REQUIRED',
  'SET_DOCUMENT_TYPE',
  'SET_INSURANCE_TYPE',
  'REDIRECT',
  'WALK_IN_EXAM',
  'CHANGE_EXAM',
  'RESTRICT_QUESTIONNAIRE',
  'REVIEW_BOOKING',
] as const;
export const OutcomeTypeSchema = z.enum(OUTCOME_TYPES);

/**
 * Outcomes that refuse, redirect, swap or otherwise change a booking. A booking-time questionnaire
 * with any of them must be answered before its exams are booked, requested or changed to, whatever
 * the provider's required_before_booking says (a pacemaker must never reach an MRI list unasked);
 * only RESTRICT_QUESTIONNAIRE, which orders the questionnaires, leaves the booking alone.
 */
export const BOOKING_DECIDING_OUTCOMES: readonly OutcomeType[] = OUTCOME_TYPES.filter((type) => type !== 'RESTRICT_QUESTIONNAIRE');
export type OutcomeType = z.infer<typeof OutcomeTypeSchema>;

export const OutcomeSchema = z.object({
  type: OutcomeTypeSchema,
  condition: z.string().min(1).max(2000),
  result: z.string().max(2000),
});
export type Outcome = z.infer<typeof OutcomeSchema>;

/** SurveyJS JSON (a survey definition); validated by survey-core on the server when loaded. */
export const SurveyJsonSchema = z.record(z.string(), z.unknown());

/**
 * A questionnaire. `outcomes` are sent for information only (the server evaluates
 * them); `css` is the provider's SurveyJS css class map; `autocomplete` questions carry a custom
 * property `autocompleteSource` (see GET /api/questionnaires/autocomplete/{source}).
 */
export const QuestionnaireSchema = z.object({
  id: z.string(),
  slug: z.string(),
  type: QuestionnaireTypeSchema,
  title: z.string(),
  json: SurveyJsonSchema,
  modalSize: ModalSizeSchema,
  association: QuestionnaireAssociationSchema,
  general: z.boolean(),
  /** Modality ids it applies to (association MODALITY). */
  modalityIds: z.array(z.string()),
  /** Exam slugs it applies to (association EXAM). */
  examSlugs: z.array(z.string()),
  outcomes: z.array(OutcomeSchema),
  css: z.record(z.string(), z.unknown()),
  showClose: z.boolean(),
  showClosingConfirmation: z.boolean(),
  showPreviousButtonOnLastPageEnabled: z.boolean(),
});
export type Questionnaire = z.infer<typeof QuestionnaireSchema>;

/**
 * One questionnaire to answer for one booking: GENERAL once per booking, MODALITY once per modality
 * of the chosen exams, EXAM once per chosen exam. `examSlug` is the exam the answer is saved for
 * (for MODALITY: the first chosen exam of that modality; for GENERAL: null); `examSlugs` are all the
 * chosen exams it covers. `answered` tells whether an answer is stored for it.
 */
export const QuestionnaireItemSchema = z.object({
  questionnaire: QuestionnaireSchema,
  examSlug: z.string().nullable(),
  examSlugs: z.array(z.string()),
  modalityId: z.string().nullable(),
  answered: z.boolean(),
});
export type QuestionnaireItem = z.infer<typeof QuestionnaireItemSchema>;

/** An answer: the survey's data object (question name -> value). At most 64 KB of JSON. */
export const QuestionnaireResultSchema = z
  .record(z.string(), z.unknown())
  .refine(answersWithoutControlCharacters, { message: CONTROL_CHARACTER_MESSAGE });

// ---------------------------------------------------------------------------------------------
// Booking time (no session; the unguessable temporary key is the capability).

/** POST /api/questionnaires/booking-keys (no body) -> 201. */
export const NewBookingKeyResponseSchema = z.object({ bookingKey: z.string() });
export type NewBookingKeyResponse = z.infer<typeof NewBookingKeyResponseSchema>;

/** GET /api/questionnaires?bookingKey=K&exams=a,b (booking-time types only). */
export const BookingQuestionnairesQuerySchema = z.strictObject({
  bookingKey: BookingKeySchema,
  exams: commaSeparated().pipe(ExamSlugListSchema),
});
export type BookingQuestionnairesQuery = z.input<typeof BookingQuestionnairesQuerySchema>;

export const QuestionnaireListResponseSchema = z.object({
  bookingKey: z.string(),
  /** In the order to open them: GENERAL first, then by modality/exam, then position. */
  questionnaires: z.array(QuestionnaireItemSchema),
  /** No unanswered item left. */
  allAnswered: z.boolean(),
});
export type QuestionnaireListResponse = z.infer<typeof QuestionnaireListResponseSchema>;

/** POST /api/questionnaires/temporary-answers -> 200 SavedAnswerResponse. Replaces an earlier answer for the same item. */
export const TemporaryAnswerRequestSchema = z.strictObject({
  bookingKey: BookingKeySchema,
  questionnaireId: z.uuid({ message: 'expected a questionnaire id' }),
  /** Required unless the questionnaire is GENERAL; must be one of the item's examSlugs. */
  examSlug: SlugSchema.optional(),
  questionnaireResult: QuestionnaireResultSchema,
});
export type TemporaryAnswerRequest = z.infer<typeof TemporaryAnswerRequestSchema>;

export const SavedAnswerResponseSchema = z.object({
  questionnaireId: z.string(),
  questionnaireType: QuestionnaireTypeSchema,
  examSlug: z.string().nullable(),
  savedAt: z.string(),
});
export type SavedAnswerResponse = z.infer<typeof SavedAnswerResponseSchema>;

/** POST /api/questionnaires/re-key: move the temporary answers of oldBookingKey to newBookingKey (a fresh key from booking-keys). */
export const ReKeyRequestSchema = z.strictObject({ oldBookingKey: BookingKeySchema, newBookingKey: BookingKeySchema });
export type ReKeyRequest = z.infer<typeof ReKeyRequestSchema>;
export const ReKeyResponseSchema = z.object({ bookingKey: z.string(), moved: z.number().int() });
export type ReKeyResponse = z.infer<typeof ReKeyResponseSchema>;

/** POST /api/questionnaires/outcomes: evaluate every stored temporary answer's outcomes for these exams. */
export const ProcessOutcomesRequestSchema = z.strictObject({ bookingKey: BookingKeySchema, exams: ExamSlugListSchema });
export type ProcessOutcomesRequest = z.infer<typeof ProcessOutcomesRequestSchema>;

export const ExamChangeSchema = z.object({ oldSlug: z.string(), newSlug: z.string(), oldestSlug: z.string() });
export type ExamChange = z.infer<typeof ExamChangeSchema>;

/**
 * The outcome processing result (docs/rules/questionnaires.md#outcomes). success=false with `message` when an outcome denies the
 * booking (DENY_BOOKING) or the booking request (DENY_BOOKING_REQUEST; then bookingRequestDenied).
 * createBookingRequest: book a request instead of a time. Fields are null/false when no outcome set them.
 */
export const OutcomeProcessingResultSchema = z.object({
  success: z.boolean(),
  message: z.string().nullable(),
  maxAttemptsReached: z.boolean(),
  bookingRequestDenied: z.boolean(),
  createBookingRequest: z.boolean(),
  medicareNumberRequired: z.boolean(),
  validationCodeRequired: z.boolean(),
  documentTypeId: z.string().nullable(),
  /** The document type documentTypeId names, to tell the patient what to bring. */
  documentType: z.object({ title: z.string(), description: z.string() }).nullable(),
  insuranceTypeId: z.string().nullable(),
  url: z.string().nullable(),
  walkInExamName: z.string().nullable(),
  prepTime: z.number().int().nullable(),
  minutesPrior: z.number().int().nullable(),
  restrictQuestionnaireId: z.string().nullable(),
  walkInEnabledGroup: z.string().nullable(),
  newExamSlug: z.string().nullable(),
  examChange: ExamChangeSchema.nullable(),
  /** A REVIEW_BOOKING outcome fired: the booking waits, holding its time, for a radiographer's review. */
  reviewRequired: z.boolean(),
});
export type OutcomeProcessingResult = z.infer<typeof OutcomeProcessingResultSchema>;

/** The result when no outcome fired: success, nothing required, nothing set. */
export function emptyOutcomeResult(): OutcomeProcessingResult {
  return {
    success: true,
    message: null,
    maxAttemptsReached: false,
    bookingRequestDenied: false,
    createBookingRequest: false,
    medicareNumberRequired: false,
    validationCodeRequired: false,
    documentTypeId: null,
    documentType: null,
    insuranceTypeId: null,
    url: null,
    walkInExamName: null,
    prepTime: null,
    minutesPrior: null,
    restrictQuestionnaireId: null,
    walkInEnabledGroup: null,
    newExamSlug: null,
    examChange: null,
    reviewRequired: false,
  };
}

/** GET /api/questionnaires/autocomplete/{source}?q=abc (q: 3 to 100 characters). */
export const AutocompleteParamsSchema = z.strictObject({ source: SlugSchema });
export const AutocompleteQuerySchema = z.strictObject({
  q: singleLineText().trim().min(3, 'type at least 3 characters').max(100),
});
/** At most 20 suggestions, those starting with q first. */
export const AutocompleteResponseSchema = z.object({ suggestions: z.array(z.string()) });
export type AutocompleteResponse = z.infer<typeof AutocompleteResponseSchema>;

// ---------------------------------------------------------------------------------------------
// After booking (patient session for that booking key; 401 otherwise, checked before validation).

export const QuestionnaireBookingKeyParamsSchema = z.strictObject({ bookingKey: BookingKeySchema });

/**
 * GET /api/questionnaires/appointment-slugs/{appointmentSlug}: the booking an appointment belongs
 * to, for /q?appointmentSlug=. Answered only to the browser signed in (APPOINTMENT) to that
 * booking; anyone else, and an unknown id, gets the same 401.
 */
export const AppointmentSlugParamsSchema = z.strictObject({ appointmentSlug: z.uuid({ message: 'expected an appointment slug' }) });
export const AppointmentBookingResponseSchema = z.object({ bookingKey: z.string() });
export type AppointmentBookingResponse = z.infer<typeof AppointmentBookingResponseSchema>;

/** ?types=A,B: which types to list (default: REQUIRED_ON_CONFIRMATION). Must be types of that subject. */
export const PendingQuestionnairesQuerySchema = z.strictObject({
  types: commaSeparated().pipe(z.array(QuestionnaireTypeSchema).min(1).max(QUESTIONNAIRE_TYPES.length)).optional(),
});
export type PendingQuestionnairesQuery = z.input<typeof PendingQuestionnairesQuerySchema>;

/** An answer kept on the appointment or booking request (including those moved there from the booking flow). */
export const StoredAnswerSchema = z.object({
  questionnaireId: z.string(),
  questionnaireType: QuestionnaireTypeSchema,
  title: z.string(),
  examSlug: z.string().nullable(),
  questionnaireResult: QuestionnaireResultSchema,
  savedAt: z.string(),
});
export type StoredAnswer = z.infer<typeof StoredAnswerSchema>;

export const PendingQuestionnairesResponseSchema = QuestionnaireListResponseSchema.extend({
  answers: z.array(StoredAnswerSchema),
});
export type PendingQuestionnairesResponse = z.infer<typeof PendingQuestionnairesResponseSchema>;

/**
 * POST /api/questionnaires/appointments/{bookingKey}/answers (APPOINTMENT_TYPES except pain scores),
 * POST /api/questionnaires/appointments/{bookingKey}/pain-score (PAIN_SCORE_TYPES),
 * POST /api/questionnaires/booking-requests/{bookingKey}/answers (BOOKING_REQUEST_TYPES).
 * CANCEL_APPOINTMENT_PATIENT cancels the booking (same rules as POST /api/appointments/{key}/cancel:
 * 409 change_not_allowed stores nothing); then `appointmentStatus` is CANCELED.
 */
export const PostBookingAnswerRequestSchema = z.strictObject({
  questionnaireId: z.uuid({ message: 'expected a questionnaire id' }),
  examSlug: SlugSchema.optional(),
  questionnaireResult: QuestionnaireResultSchema,
});
export type PostBookingAnswerRequest = z.infer<typeof PostBookingAnswerRequestSchema>;

export const PostBookingAnswerResponseSchema = SavedAnswerResponseSchema.extend({
  appointmentStatus: z.string().nullable(),
});
export type PostBookingAnswerResponse = z.infer<typeof PostBookingAnswerResponseSchema>;

/** Largest accepted questionnaireResult, as JSON text. */
export const MAX_RESULT_BYTES = 64 * 1024;

// ---------------------------------------------------------------------------------------------
// Questionnaires due on a booking (docs/rules/questionnaires.md#due)

/** Answered before the visit: "Before your visit" and the pain score before a procedure. */
export const DUE_BEFORE_VISIT: readonly QuestionnaireType[] = ['REQUIRED_ON_CONFIRMATION', 'PAIN_SCORE_INITIAL'];
/** Answered after the visit: the pain score after a procedure and the feedback. */
export const DUE_AFTER_VISIT: readonly QuestionnaireType[] = ['PAIN_SCORE_FINAL', 'FEEDBACK'];
/** How long after the visit its after-visit questionnaires are still asked for. */
export const DUE_AFTER_VISIT_DAYS = 30;

/** The questionnaires a booking's patient should answer now, unanswered ones only, with the /q link's types. */
export const DueQuestionnairesSchema = z.object({
  types: z.array(QuestionnaireTypeSchema),
  titles: z.array(z.string()),
});
export type DueQuestionnaires = z.infer<typeof DueQuestionnairesSchema>;

/** The pending page's address for the due questionnaires, back to `target` (a path of this portal) when done. */
export function dueQuestionnairesPath(bookingKey: string, due: DueQuestionnaires, target?: string): string {
  const query = [`bookingKey=${encodeURIComponent(bookingKey)}`, `types=${due.types.join(',')}`];
  if (target !== undefined) query.push(`target=${encodeURIComponent(target)}`);
  return `/q?${query.join('&')}`;
}
