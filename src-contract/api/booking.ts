import { z } from 'zod';
import { BookingFormAnswersSchema } from './booking-form-details';
import { ClinicFieldsSchema, commaSeparated, IsoDateSchema } from './common';
import { multiLineText, singleLineText } from './text';

/**
 * The booking API (docs/rules/booking.md): catalogue, clinics near a position, free times, holds, appointments
 * and booking requests. The server validates requests and serialises answers with these schemas;
 * the web app types its calls with them. Times on the wire are ISO instants (UTC, `Z`); a clinic's
 * local wall-clock time is given beside them as `localTime` so nobody converts time zones twice.
 */

// ---------------------------------------------------------------------------------------------
// Shared pieces

const SLUG_PATTERN = /^[a-z0-9-]+$/;
export const SlugSchema = z.string().min(1).max(100).regex(SLUG_PATTERN, 'expected a slug (a-z, 0-9, -)');

/** An ISO instant with a zone designator, e.g. 2026-11-23T22:30:00.000Z. */
export const InstantSchema = z.iso.datetime({ offset: true, message: 'expected an ISO date-time, e.g. 2026-11-23T22:30:00Z' });

/** A comma-separated query list of `min` to `max` distinct items. */
function commaList(item: z.ZodString, min: number, max: number, what: string) {
  return commaSeparated().pipe(
    z
      .array(item)
      .min(min, `choose at least ${min} ${what}`)
      .max(max, `choose at most ${max} ${what}`)
      .refine((values) => new Set(values).size === values.length, `each of the ${what} can be chosen once`),
  );
}

/** At most this many exams share one booking. */
export const MAX_EXAMS_PER_BOOKING = 5;
/** At most this many clinics in one availability question. */
export const MAX_CLINICS_PER_QUERY = 60;
/** At most this many days in one week-style availability question. */
export const MAX_AVAILABILITY_DAYS = 31;

export const ExamSlugListSchema = z
  .array(SlugSchema)
  .min(1, 'choose at least one exam')
  .max(MAX_EXAMS_PER_BOOKING, `choose at most ${MAX_EXAMS_PER_BOOKING} exams`)
  .refine((slugs) => new Set(slugs).size === slugs.length, 'each exam can be chosen once');

// ---------------------------------------------------------------------------------------------
// Catalogue: GET /api/booking/catalogue, GET /api/booking/exams

export const ModalitySchema = z.object({ id: z.string(), slug: z.string(), name: z.string() });
export type Modality = z.infer<typeof ModalitySchema>;

export const BodyPartSchema = z.object({ slug: z.string(), name: z.string() });
export type BodyPart = z.infer<typeof BodyPartSchema>;

/**
 * Exam search data (docs/rules/booking.md#exam-search): the provider's own words for an exam and
 * its groups of words that mean the same, so synonyms are data. Bounded so a catalogue cannot
 * make the search index in every patient's browser large.
 */
export const SEARCH_TERM_MAX_LENGTH = 60;
export const SEARCH_TERMS_PER_EXAM_MAX = 20;
export const SEARCH_SYNONYM_GROUP_MAX_TERMS = 12;
export const SEARCH_SYNONYM_GROUPS_MAX = 100;
export const SearchTermSchema = singleLineText().trim().min(1).max(SEARCH_TERM_MAX_LENGTH);
export const ExamSearchTermsSchema = z.array(SearchTermSchema).max(SEARCH_TERMS_PER_EXAM_MAX);
/** Words that mean the same for a patient, e.g. x-ray, xray, radiograph. */
export const SearchSynonymGroupSchema = z.array(SearchTermSchema).min(2).max(SEARCH_SYNONYM_GROUP_MAX_TERMS);
export const SearchSynonymsSchema = z.array(SearchSynonymGroupSchema).max(SEARCH_SYNONYM_GROUPS_MAX);
export type SearchSynonyms = z.infer<typeof SearchSynonymsSchema>;

/** An exam, plus what the booking flow needs to decide its next step. */
export const ExamSchema = z.object({
  slug: z.string(),
  name: z.string(),
  modalityId: z.string(),
  modalityName: z.string(),
  priority: z.number().int(),
  examCode: z.string(),
  /** The spec's exam notes; null: the catalogue's texts are `notes` and `preparationNotes`, each sent once. */
  examNotes: z.string().nullable(),
  notes: z.string().nullable(),
  showBookingRequestInfoModal: z.boolean(),
  /** No online times: choosing it leads to a booking request instead of a slot. */
  enquiryOnly: z.boolean(),
  bodyPartSlugs: z.array(z.string()),
  durationMinutes: z.number().int(),
  /** The patient must give a Medicare number to book it. */
  medicareRequired: z.boolean(),
  preparationNotes: z.string(),
  /** Other words patients use for this exam (lay words, abbreviations); found by the exam search. */
  searchTerms: ExamSearchTermsSchema.optional(),
});
export type Exam = z.infer<typeof ExamSchema>;

export const CatalogueSchema = z.object({
  modalities: z.array(ModalitySchema),
  bodyParts: z.array(BodyPartSchema),
  exams: z.array(ExamSchema),
  /** The provider's synonym groups for the exam search. */
  searchSynonyms: SearchSynonymsSchema.optional(),
});
export type Catalogue = z.infer<typeof CatalogueSchema>;

export const ExamSearchQuerySchema = z.strictObject({
  /** Case-insensitive part of the exam name. */
  search: singleLineText().trim().max(100).optional(),
  /** Modality id or slug (e.g. `mr`). */
  modality: singleLineText().trim().min(1).max(100).optional(),
  bodyPart: SlugSchema.optional(),
});
export type ExamSearchQuery = z.infer<typeof ExamSearchQuerySchema>;
export const ExamListSchema = z.array(ExamSchema);

// ---------------------------------------------------------------------------------------------
// Settings and location: GET /api/booking/settings, GET /api/booking/postcodes/{postcode}

export const LocationSchema = z.object({
  latitude: z.number().min(-90).max(90),
  longitude: z.number().min(-180).max(180),
});
export type Location = z.infer<typeof LocationSchema>;

export const BookingSettingsSchema = z.object({
  defaultLocation: LocationSchema.extend({ label: z.string() }),
  /** Beyond this distance from the default location the default location is used. */
  maxDistanceKm: z.number(),
  /** Earliest bookable start is now + leadMinutes. */
  leadMinutes: z.number().int(),
  /** Latest bookable day is today + horizonDays (clinic's local date). */
  horizonDays: z.number().int(),
  /** A hold keeps a time for this long while the patient fills in details. */
  holdMinutes: z.number().int(),
});
export type BookingSettings = z.infer<typeof BookingSettingsSchema>;

export const PostcodeSchema = z.string().regex(/^\d{4}$/, 'Please enter a 4-digit Australian postcode.');
export const PostcodeParamsSchema = z.strictObject({ postcode: PostcodeSchema });
/** A postcode and its position, for the postcode locator (docs/rules/booking.md#location). */
export const PostalCodeLocationSchema = z.object({ id: z.string(), latitude: z.number(), longitude: z.number() });
export type PostalCodeLocation = z.infer<typeof PostalCodeLocationSchema>;

// ---------------------------------------------------------------------------------------------
// Clinics: GET /api/booking/clinics?exams=a,b&lat=&lng=

export const ClinicsQuerySchema = z.strictObject({
  exams: commaList(SlugSchema, 1, MAX_EXAMS_PER_BOOKING, 'exams'),
  lat: z.coerce.number().min(-90).max(90).optional(),
  lng: z.coerce.number().min(-180).max(180).optional(),
});
export type ClinicsQuery = z.input<typeof ClinicsQuerySchema>;

export const BookingClinicSchema = ClinicFieldsSchema;
export type BookingClinic = z.infer<typeof BookingClinicSchema>;

export const ClinicWithDistanceSchema = z.object({
  clinic: BookingClinicSchema,
  distanceKm: z.number(),
  /** The first free start within the horizon, or null when none (or the exams are enquiry-only). */
  nextAvailable: InstantSchema.nullable(),
});
export type ClinicWithDistance = z.infer<typeof ClinicWithDistanceSchema>;

export const ClinicsResponseSchema = z.object({
  origin: LocationSchema.extend({ usedDefault: z.boolean() }),
  /** Only clinics offering every chosen exam, nearest first. */
  clinics: z.array(ClinicWithDistanceSchema),
});
export type ClinicsResponse = z.infer<typeof ClinicsResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Availability: GET /api/booking/availability, GET /api/booking/availability/month

export const AvailabilityQuerySchema = z.strictObject({
  exams: commaList(SlugSchema, 1, MAX_EXAMS_PER_BOOKING, 'exams'),
  clinics: commaList(SlugSchema, 1, MAX_CLINICS_PER_QUERY, 'clinics'),
  /** First local date (in each clinic's zone). */
  from: IsoDateSchema,
  days: z.coerce.number().int().min(1).max(MAX_AVAILABILITY_DAYS).default(7),
});
export type AvailabilityQuery = z.input<typeof AvailabilityQuerySchema>;

export const SlotSchema = z.object({
  startsAt: InstantSchema,
  /** The clinic's wall-clock start, HH:MM. */
  localTime: z.string(),
});
export type Slot = z.infer<typeof SlotSchema>;

export const DaySlotsSchema = z.object({ date: IsoDateSchema, slots: z.array(SlotSchema) });
export type DaySlots = z.infer<typeof DaySlotsSchema>;

export const ClinicAvailabilitySchema = z.object({
  clinicSlug: z.string(),
  timeZone: z.string(),
  /** One entry per requested day, in order, also for days without a free time. */
  days: z.array(DaySlotsSchema),
});
export type ClinicAvailability = z.infer<typeof ClinicAvailabilitySchema>;

export const AvailabilityResponseSchema = z.object({ clinics: z.array(ClinicAvailabilitySchema) });
export type AvailabilityResponse = z.infer<typeof AvailabilityResponseSchema>;

export const MonthQuerySchema = z.strictObject({
  exams: commaList(SlugSchema, 1, MAX_EXAMS_PER_BOOKING, 'exams'),
  clinics: commaList(SlugSchema, 1, MAX_CLINICS_PER_QUERY, 'clinics'),
  month: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'expected a month as YYYY-MM'),
});
export type MonthQuery = z.input<typeof MonthQuerySchema>;

export const MonthResponseSchema = z.object({
  /** Every day of the month; available = at least one of the clinics has a free time. */
  days: z.array(z.object({ date: IsoDateSchema, available: z.boolean() })),
});
export type MonthResponse = z.infer<typeof MonthResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Holds: POST /api/booking/holds, DELETE /api/booking/holds/{holdId}

export const HoldRequestSchema = z.strictObject({
  exams: ExamSlugListSchema,
  clinicSlug: SlugSchema,
  startsAt: InstantSchema,
});
export type HoldRequest = z.infer<typeof HoldRequestSchema>;

export const HoldResponseSchema = z.object({ holdId: z.string(), expiresAt: InstantSchema });
export type HoldResponse = z.infer<typeof HoldResponseSchema>;

export const HoldParamsSchema = z.strictObject({
  holdId: z
    .string()
    .min(16)
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/),
});

/** 409 slot_taken / hold_expired: details carry fresh times for the same clinic and day onwards. */
export const SlotTakenDetailsSchema = z.object({ freshSlots: z.array(SlotSchema) });
export type SlotTakenDetails = z.infer<typeof SlotTakenDetailsSchema>;
export const SLOT_TAKEN_MESSAGE = 'That time was just taken. Please choose another time.';
export const HOLD_EXPIRED_MESSAGE = 'Your hold on that time has expired and the time was taken. Please choose another time.';

// ---------------------------------------------------------------------------------------------
// Patient details (docs/rules/booking.md#patient-details). The web app shows these messages next to the fields before
// submitting; the server applies the same rules (and "not in the future" against its clock).

export const PATIENT_TITLES = ['Mr', 'Mrs', 'Ms', 'Miss', 'Mx', 'Dr', 'Prof', 'Master'] as const;

export const PATIENT_MESSAGES = {
  title: 'Please choose a title.',
  firstName: 'Please enter a first name (letters, spaces, hyphens and apostrophes).',
  lastName: 'Please enter a last name (letters, spaces, hyphens and apostrophes).',
  dateOfBirth: 'Please enter a valid date of birth.',
  dateOfBirthFuture: 'Date of birth cannot be in the future.',
  email: 'Please enter a valid email address.',
  contactNumber: 'please enter a valid contact number',
  postalCode: 'Please enter a 4-digit Australian postcode.',
  medicareNumber: 'Please enter a valid 10-digit Medicare number.',
  medicareRequired: 'A Medicare number is required for this exam.',
} as const;

export const NAME_PATTERN = /^[\p{L}][\p{L}\p{M}' .-]*$/u;

/** A real calendar date from 1900-01-01 (the future check needs a clock and lives in the caller). */
export function isValidCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const [year, month, day] = value.split('-').map(Number);
  if (year === undefined || month === undefined || day === undefined) return false;
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day && year >= 1900;
}

/**
 * Australian Medicare card number: 10 digits, first digit 2-6, the 9th a weighted check digit
 * over the first 8 (weights 1,3,7,9,1,3,7,9), the 10th the card issue number.
 */
export function isValidMedicareNumber(value: string): boolean {
  if (!/^[2-6]\d{9}$/.test(value)) return false;
  const digits = [...value].map(Number);
  const weights = [1, 3, 7, 9, 1, 3, 7, 9];
  const sum = weights.reduce((total, weight, index) => total + weight * (digits[index] ?? 0), 0);
  return sum % 10 === digits[8];
}

export const PatientDetailsSchema = z.strictObject({
  title: z.enum(PATIENT_TITLES, { message: PATIENT_MESSAGES.title }),
  firstName: z
    .string()
    .trim()
    .min(1, PATIENT_MESSAGES.firstName)
    .max(100, PATIENT_MESSAGES.firstName)
    .regex(NAME_PATTERN, PATIENT_MESSAGES.firstName),
  lastName: z
    .string()
    .trim()
    .min(1, PATIENT_MESSAGES.lastName)
    .max(100, PATIENT_MESSAGES.lastName)
    .regex(NAME_PATTERN, PATIENT_MESSAGES.lastName),
  dateOfBirth: z.string().refine(isValidCalendarDate, PATIENT_MESSAGES.dateOfBirth),
  email: z
    .string()
    .trim()
    .max(254, PATIENT_MESSAGES.email)
    .pipe(z.email({ message: PATIENT_MESSAGES.email })),
  contactNumber: z.string().regex(/^\d{1,10}$/, PATIENT_MESSAGES.contactNumber),
  postalCode: PostcodeSchema,
  medicareNumber: z.string().refine(isValidMedicareNumber, PATIENT_MESSAGES.medicareNumber).optional(),
});
export type PatientDetails = z.infer<typeof PatientDetailsSchema>;
/** The patient details' fields in the order every form asks for them (the booking form, the chat); the schema's own order. */
export const PATIENT_DETAIL_FIELDS = [
  'title',
  'firstName',
  'lastName',
  'dateOfBirth',
  'email',
  'contactNumber',
  'postalCode',
  'medicareNumber',
] as const satisfies readonly (keyof PatientDetails)[];

// ---------------------------------------------------------------------------------------------
// Walk-in exams: GET /api/booking/walk-in-exams?modality=

/** A walk-in exam: done without a booked time, before the appointment. */
export const WalkInExamSchema = z.object({
  name: z.string().trim().min(1).max(200),
  /** Minutes of preparation. */
  prepTime: z.number().int().min(0).max(600),
  /** Arrive this many minutes before the booked appointment. */
  minutesPrior: z.number().int().min(0).max(600),
});
export type WalkInExam = z.infer<typeof WalkInExamSchema>;
export const WalkInExamQuerySchema = z.strictObject({ modality: singleLineText().trim().min(1).max(100).optional() });
export const WalkInExamListSchema = z.array(WalkInExamSchema);

// ---------------------------------------------------------------------------------------------
// Appointments: POST /api/booking/appointments (header Idempotency-Key: a UUID, required)

export const IdempotencyHeadersSchema = z.object({
  'idempotency-key': z.uuid({ message: 'Idempotency-Key header must be a UUID' }),
});

/**
 * A validation code: asked for when a VALIDATION_CODE_REQUIRED questionnaire outcome fires (e.g. the code
 * on an e-referral). Letters and digits, spaces and dashes ignored, kept upper-case.
 */
export const VALIDATION_CODE_MESSAGE = 'Please enter the validation code: 4 to 20 letters or digits.';
export const ValidationCodeSchema = z
  .string()
  .transform((value) => value.replace(/[\s-]/g, '').toUpperCase())
  .pipe(z.string().regex(/^[A-Z0-9]{4,20}$/, VALIDATION_CODE_MESSAGE));

/** What the booking form sends with a booking and with a booking request alike. */
const BOOKING_FORM_FIELDS = {
  /** The temporary key the questionnaire answers were saved under; they move to the booking or the request. */
  questionnaireKey: z
    .string()
    .regex(/^[A-Za-z0-9_-]{22,64}$/, 'expected a booking key')
    .optional(),
  /** Required when the questionnaire answers ask for one (outcome validationCodeRequired). */
  validationCode: ValidationCodeSchema.optional(),
  /** Insurance, ethnicity and the referring practice (docs/rules/booking.md#booking-form-details). */
  formDetails: BookingFormAnswersSchema.optional(),
};

export const AppointmentCreateRequestSchema = z.strictObject({
  /** From POST /holds; when it has expired the time is booked anyway if still free. */
  holdId: HoldParamsSchema.shape.holdId.optional(),
  exams: ExamSlugListSchema,
  clinicSlug: SlugSchema,
  startsAt: InstantSchema,
  patient: PatientDetailsSchema,
  walkInExam: WalkInExamSchema.optional(),
  /** Booked by staff on behalf of the patient: patient-facing text variants. */
  staffBooking: z.boolean().optional(),
  /** Create PENDING appointments (time kept, awaiting confirmation) instead of BOOKED. */
  pending: z.boolean().optional(),
  ...BOOKING_FORM_FIELDS,
});
export type AppointmentCreateRequest = z.infer<typeof AppointmentCreateRequestSchema>;

/** What a booking answers, one per exam. */
export const AppointmentCreationResponseSchema = z.object({
  success: z.boolean(),
  errorMessage: z.string().nullable(),
  id: z.string(),
  modalityName: z.string(),
  examName: z.string(),
  clinicName: z.string(),
  /** Start instant (ISO). */
  date: InstantSchema,
  patientYearOfBirth: z.number().int(),
  /** SHA-256 hex of the lower-cased email (analytics without the address). */
  patientEmailHash: z.string(),
});
export type AppointmentCreationResponse = z.infer<typeof AppointmentCreationResponseSchema>;

export const AppointmentCreateResponseSchema = z.object({
  bookingKey: z.string(),
  /** ON_HOLD: the screening answers wait for a radiographer's review (docs/rules/screening-review.md); the time is held. */
  status: z.enum(['BOOKED', 'PENDING', 'ON_HOLD']),
  appointments: z.array(AppointmentCreationResponseSchema),
});
export type AppointmentCreateResponse = z.infer<typeof AppointmentCreateResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Booking requests: POST /api/booking/booking-requests (Idempotency-Key required)

/**
 * Where a booking request was made (docs/rules/chat.md#the-server): the booking flow, or the chat
 * assistant's conversation (any exam of the catalogue; the booking team books it by phone).
 */
export const BOOKING_REQUEST_CHANNELS = ['web', 'chat'] as const;
export type BookingRequestChannel = (typeof BOOKING_REQUEST_CHANNELS)[number];
/** When the patient would like the exam, as the callback request's windows (CALLBACK_WINDOWS, the same values). */
export const PREFERRED_TIMES = ['weekdayMorning', 'weekdayAfternoon', 'saturdayMorning', 'anyTime'] as const;
export type PreferredTime = (typeof PREFERRED_TIMES)[number];
export const PREFERRED_TIMES_MESSAGE = 'Please choose at least one time that suits you.';
export const PREFERRED_TIMES_CHAT_ONLY = 'preferredTimes is sent only with channel "chat".';

export const BookingRequestCreateSchema = z
  .strictObject({
    /** Omitted: 'web'. 'chat' requires preferredTimes. */
    channel: z.enum(BOOKING_REQUEST_CHANNELS, { message: 'expected channel "web" or "chat"' }).optional(),
    preferredTimes: z
      .array(z.enum(PREFERRED_TIMES, { message: PREFERRED_TIMES_MESSAGE }))
      .min(1, PREFERRED_TIMES_MESSAGE)
      .max(PREFERRED_TIMES.length, PREFERRED_TIMES_MESSAGE)
      .refine((times) => new Set(times).size === times.length, PREFERRED_TIMES_MESSAGE)
      .optional(),
    exams: ExamSlugListSchema,
    clinicSlug: SlugSchema.optional(),
    patient: PatientDetailsSchema,
    patientNotes: multiLineText().trim().max(2000).optional(),
    ...BOOKING_FORM_FIELDS,
  })
  .superRefine((request, context) => {
    // A chat request names when the patient can come; the booking flow's requests never do.
    if (request.channel === 'chat' && request.preferredTimes === undefined)
      context.addIssue({ code: 'custom', path: ['preferredTimes'], message: PREFERRED_TIMES_MESSAGE });
    if (request.channel !== 'chat' && request.preferredTimes !== undefined)
      context.addIssue({ code: 'custom', path: ['preferredTimes'], message: PREFERRED_TIMES_CHAT_ONLY });
  });
export type BookingRequestCreate = z.infer<typeof BookingRequestCreateSchema>;

export const BookingRequestResultSchema = z.object({
  examSlug: z.string(),
  success: z.boolean(),
  errorMessage: z.string().optional(),
  /** The created booking request's slug. */
  slug: z.string().optional(),
});
export const BookingRequestCreateResponseSchema = z.object({
  bookingKey: z.string(),
  results: z.array(BookingRequestResultSchema),
});
export type BookingRequestCreateResponse = z.infer<typeof BookingRequestCreateResponseSchema>;
