import { z } from 'zod';
import { searchText, searchTextMessages, singleLineText } from './text';

/**
 * The booking form's details (docs/rules/booking.md#booking-form-details): the patient's insurance,
 * the ethnicity question and the referring practice. The provider configures the insurance types
 * and ethnicities (GET /api/booking/form-details); the booking calls carry the answers in
 * `formDetails`; staff see them with the booking and the RIS gets them in the check-in hand-off.
 */

/** What an insurance type asks for besides itself: each kind needs its own card details. */
export const INSURANCE_KINDS = ['MEDICARE', 'DVA', 'PRIVATE', 'SELF_PAY'] as const;
export type InsuranceKind = (typeof INSURANCE_KINDS)[number];

/**
 * The Australian standard ethnicity question's answers (ABS "Indigenous Status"): ours, so the web
 * app translates them; a provider may add its own codes, shown with the label as configured.
 * NOT_STATED ("Prefer not to say") is always offered.
 */
export const STANDARD_ETHNICITY_CODES = ['NO', 'ABORIGINAL', 'TORRES_STRAIT_ISLANDER', 'BOTH', 'NOT_STATED'] as const;
export const ETHNICITY_NOT_STATED = 'NOT_STATED';

/** A configured code: upper-case letters, digits and underscores. */
export const FormDetailsCodeSchema = z
  .string()
  .min(1)
  .max(40)
  .regex(/^[A-Z0-9_]+$/, 'expected a code (A-Z, 0-9, _)');

export const FORM_DETAILS_LIMITS = { memberNumber: 30, fundName: 100, practiceName: 120, practiceSuburb: 80 } as const;

export const FORM_DETAILS_MESSAGES = {
  insuranceType: 'Please choose how the exam will be paid for.',
  insuranceTypeUnknown: 'Please choose one of the listed ways to pay.',
  memberNumber: `Please enter the card or file number: letters, digits, spaces, dashes or slashes, at most ${FORM_DETAILS_LIMITS.memberNumber}.`,
  memberNumberRequired: 'Please enter the card or file number.',
  fundName: `Please enter the health fund's name (at most ${FORM_DETAILS_LIMITS.fundName} characters).`,
  fundNameRequired: "Please enter the health fund's name.",
  notAsked: 'This detail is not asked for the chosen way to pay.',
  medicareRequired: 'A Medicare number is required when Medicare pays.',
  ethnicity: 'Please answer the question about Aboriginal or Torres Strait Islander origin.',
  ethnicityUnknown: 'Please choose one of the listed answers.',
  practiceName: `Please enter the referring practice's name (at most ${FORM_DETAILS_LIMITS.practiceName} characters).`,
  practiceRequired: "Please enter the referring practice's name.",
  practiceSuburb: `Please enter the suburb with at most ${FORM_DETAILS_LIMITS.practiceSuburb} characters.`,
} as const;

// ---------------------------------------------------------------------------------------------
// GET /api/booking/form-details

export const InsuranceTypeSchema = z.object({
  code: FormDetailsCodeSchema,
  kind: z.enum(INSURANCE_KINDS),
  /** The provider's own text, shown as configured. */
  label: z.string(),
});
export type InsuranceType = z.infer<typeof InsuranceTypeSchema>;

export const EthnicitySchema = z.object({ code: FormDetailsCodeSchema, label: z.string() });
export type Ethnicity = z.infer<typeof EthnicitySchema>;

/** Whether a question is on the form, and whether it must be answered. */
export const FormQuestionSchema = z.object({ asked: z.boolean(), required: z.boolean() });
export type FormQuestion = z.infer<typeof FormQuestionSchema>;

export const BookingFormDetailsSchema = z.object({
  insurance: FormQuestionSchema.extend({ types: z.array(InsuranceTypeSchema) }),
  ethnicity: FormQuestionSchema.extend({ options: z.array(EthnicitySchema) }),
  referringPractice: FormQuestionSchema,
});
export type BookingFormDetails = z.infer<typeof BookingFormDetailsSchema>;

// ---------------------------------------------------------------------------------------------
// The answers, in POST /api/booking/appointments and /api/booking/booking-requests

const memberNumber = singleLineText()
  .trim()
  .min(1, FORM_DETAILS_MESSAGES.memberNumberRequired)
  .max(FORM_DETAILS_LIMITS.memberNumber, FORM_DETAILS_MESSAGES.memberNumber)
  .regex(/^[A-Za-z0-9][A-Za-z0-9 /-]*$/, FORM_DETAILS_MESSAGES.memberNumber);

export const InsuranceAnswerSchema = z.strictObject({
  typeCode: FormDetailsCodeSchema,
  /** DVA file number, or the private fund's member number. */
  memberNumber: memberNumber.optional(),
  /** The private health fund's name. */
  fundName: singleLineText()
    .trim()
    .min(1, FORM_DETAILS_MESSAGES.fundNameRequired)
    .max(FORM_DETAILS_LIMITS.fundName, FORM_DETAILS_MESSAGES.fundName)
    .optional(),
});

export const ReferringPracticeAnswerSchema = z.strictObject({
  name: singleLineText()
    .trim()
    .min(1, FORM_DETAILS_MESSAGES.practiceRequired)
    .max(FORM_DETAILS_LIMITS.practiceName, FORM_DETAILS_MESSAGES.practiceName),
  suburb: singleLineText().trim().max(FORM_DETAILS_LIMITS.practiceSuburb, FORM_DETAILS_MESSAGES.practiceSuburb).optional(),
});

export const BookingFormAnswersSchema = z.strictObject({
  insurance: InsuranceAnswerSchema.optional(),
  ethnicityCode: FormDetailsCodeSchema.optional(),
  /** Found with the organisation search, or typed when not listed. */
  referringPractice: ReferringPracticeAnswerSchema.optional(),
});
export type BookingFormAnswers = z.infer<typeof BookingFormAnswersSchema>;

// ---------------------------------------------------------------------------------------------
// The answers as staff (and the booking's patient) read them back

export const BookingFormDetailsViewSchema = z.object({
  insurance: z
    .object({
      code: z.string(),
      kind: z.enum(INSURANCE_KINDS),
      label: z.string(),
      memberNumber: z.string().nullable(),
      fundName: z.string().nullable(),
    })
    .nullable(),
  ethnicity: z.object({ code: z.string(), label: z.string() }).nullable(),
  referringPractice: z.object({ name: z.string(), suburb: z.string().nullable() }).nullable(),
});
export type BookingFormDetailsView = z.infer<typeof BookingFormDetailsViewSchema>;

// ---------------------------------------------------------------------------------------------
// GET /api/booking/referring-organisations?q=

export const ORGANISATION_SEARCH_MIN_LENGTH = 3;
export const ORGANISATION_SEARCH_MAX_LENGTH = 50;
export const ORGANISATION_SEARCH_LIMIT = 10;

export const ORGANISATION_SEARCH_MESSAGES = searchTextMessages(
  ORGANISATION_SEARCH_MIN_LENGTH,
  ORGANISATION_SEARCH_MAX_LENGTH,
  'a practice',
);

export const OrganisationSearchQuerySchema = z.strictObject({
  q: searchText(ORGANISATION_SEARCH_MIN_LENGTH, ORGANISATION_SEARCH_MAX_LENGTH, ORGANISATION_SEARCH_MESSAGES),
});

/** A practice of the referring-doctor directory: its name and suburb only, never a doctor. */
export const ReferringOrganisationSchema = z.object({ name: z.string(), suburb: z.string() });
export type ReferringOrganisation = z.infer<typeof ReferringOrganisationSchema>;

export const OrganisationSearchResponseSchema = z.object({
  organisations: z.array(ReferringOrganisationSchema).max(ORGANISATION_SEARCH_LIMIT),
});
export type OrganisationSearchResponse = z.infer<typeof OrganisationSearchResponseSchema>;
