import { z } from 'zod';
import { InstantSchema } from './booking';
import { MAX_RESULT_BYTES, ModalSizeSchema } from './questionnaires';
import { answersWithoutControlCharacters, CONTROL_CHARACTER_MESSAGE, singleLineText } from './text';

/**
 * Report-quality feedback by the referring doctor (docs/rules/referrers.md
 * #report-quality-feedback). The referrer opens /referrer/report-feedback with the imsec of the
 * report-ready mail (or, signed in with the referrer role, with the accession number), gets the
 * provider's feedback questionnaire for that report, and answers it once per report.
 */

/** The signed link's largest length (src-server/platform/signed-links MAX_TOKEN_LENGTH). */
const ImsecSchema = singleLineText().min(1).max(1024);
const AccessionSchema = z
  .string()
  .regex(/^[A-Za-z0-9._-]{1,64}$/, 'An accession number is 1 to 64 letters, digits, dots, hyphens or underscores.');

/** ?imsec (the referrer's link) or ?pacsAppointmentId (the accession number, for a signed-in referrer); exactly one. */
export const FeedbackQuerySchema = z
  .strictObject({ imsec: ImsecSchema.optional(), pacsAppointmentId: AccessionSchema.optional() })
  .refine((query) => (query.imsec === undefined) !== (query.pacsAppointmentId === undefined), {
    message: 'Give either imsec or pacsAppointmentId.',
  });
export type FeedbackQuery = z.infer<typeof FeedbackQuerySchema>;

/** The feedback questionnaire for one report (docs/rules/referrers.md#the-questionnaire). */
export const FeedbackQuestionnaireSchema = z.object({
  questionnaireId: z.uuid(),
  /** Default 'lg' (docs/rules/questionnaires.md#survey-modal). */
  modalSize: ModalSizeSchema,
  /** The report's exam. */
  examSlugs: z.array(z.string()),
  /** The report's modality. */
  modalityIds: z.array(z.string()),
  /** The SurveyJS definition. */
  questionnaire: z.record(z.string(), z.unknown()),
  /** Which report the feedback rates, said to the doctor (the patient, the exam, when it was reported). */
  report: z.object({ patientName: z.string(), examName: z.string(), reportedAt: InstantSchema }),
});
export type FeedbackQuestionnaire = z.infer<typeof FeedbackQuestionnaireSchema>;

/**
 * GET answer: 200 with `questionnaire: null` and `alreadyProvided: true` once the report has its
 * feedback (spec: "or nothing if already provided"); a 200 so the page tells the referrer
 * calmly, rather than handling it as a failure.
 */
export const FeedbackQuestionnaireResponseSchema = z.object({
  alreadyProvided: z.boolean(),
  questionnaire: FeedbackQuestionnaireSchema.nullable(),
});
export type FeedbackQuestionnaireResponse = z.infer<typeof FeedbackQuestionnaireResponseSchema>;

/** The answers' largest size as JSON (the same bound as every questionnaire answer). */
export const MAX_FEEDBACK_BYTES = MAX_RESULT_BYTES;

export const FeedbackRequestSchema = z.strictObject({
  questionnaireId: z.uuid(),
  questionnaireResult: z
    .record(z.string().max(200), z.unknown())
    .refine((result) => JSON.stringify(result).length <= MAX_FEEDBACK_BYTES, { message: 'The answer is too large.' })
    .refine(answersWithoutControlCharacters, { message: CONTROL_CHARACTER_MESSAGE }),
});
export type FeedbackRequest = z.infer<typeof FeedbackRequestSchema>;

export const FeedbackSavedResponseSchema = z.object({ id: z.uuid(), createdAt: InstantSchema });
export type FeedbackSavedResponse = z.infer<typeof FeedbackSavedResponseSchema>;

/** The largest number of rows one CSV export holds (a narrower filter exports the rest). */
export const MAX_FEEDBACK_EXPORT_ROWS = 10_000;

const CalendarDateSchema = z.iso.date('A date is YYYY-MM-DD, e.g. 2026-03-14.');

/** An IANA time zone the runtime knows (the one the date range's days are read in). */
const TimeZoneSchema = z
  .string()
  .max(64)
  .refine(
    (zone) => {
      try {
        new Intl.DateTimeFormat('en', { timeZone: zone });
        return true;
      } catch {
        return false;
      }
    },
    { message: 'The time zone is not a known IANA zone, e.g. Australia/Sydney.' },
  );

/** What staff may sort by: the date, the referrer, or a rating question's score (score:<question name>). */
export const FeedbackSortSchema = z.union([
  z.enum(['date', 'referrer']),
  z.string().regex(/^score:[A-Za-z0-9_]{1,64}$/, 'Sort by date, referrer or score:<question name>.'),
]);
export type FeedbackSort = z.infer<typeof FeedbackSortSchema>;

/**
 * Which feedback staff read or export (staff, admin), filtered and sorted by the server so it
 * holds over many rows: one referrer (the key of byReferrer: provider number, else name), one
 * modality (its code; the empty string is feedback on no modality), and the days from..to (both
 * included) in timeZone.
 */
const filterShape = {
  referrer: singleLineText().min(1).max(200).optional(),
  modality: singleLineText().max(32).optional(),
  from: CalendarDateSchema.optional(),
  to: CalendarDateSchema.optional(),
  timeZone: TimeZoneSchema.default('UTC'),
  sort: FeedbackSortSchema.default('date'),
  order: z.enum(['asc', 'desc']).default('desc'),
};
const rangeInOrder = (filter: { from?: string; to?: string }): boolean =>
  filter.from === undefined || filter.to === undefined || filter.from <= filter.to;
const rangeProblem = { message: 'The date range ends before it starts.', path: ['to'] };

export const FeedbackFilterSchema = z.strictObject(filterShape).refine(rangeInOrder, rangeProblem);
export type FeedbackFilter = z.infer<typeof FeedbackFilterSchema>;
/** The filter as the page sends it (defaults optional). */
export type FeedbackFilterInput = z.input<typeof FeedbackFilterSchema>;

/** GET /api/staff/referrer-feedback.csv: the feedback of the filter as CSV; this header says how many rows it holds. */
export const FEEDBACK_CSV_ROWS_HEADER = 'x-feedback-rows';
export const FeedbackExportQuerySchema = FeedbackFilterSchema;

/** GET /api/staff/referrer-feedback: one page of the filter. */
export const FeedbackListQuerySchema = z
  .strictObject({
    page: z.coerce.number().int().min(1).max(10_000).default(1),
    pageSize: z.coerce.number().int().min(1).max(100).default(20),
    ...filterShape,
  })
  .refine(rangeInOrder, rangeProblem);
export type FeedbackListQuery = z.infer<typeof FeedbackListQuerySchema>;

export const FeedbackEntrySchema = z.object({
  id: z.uuid(),
  reportId: z.uuid(),
  accessionNumber: z.string(),
  referrerName: z.string(),
  referrerProviderNumber: z.string().nullable(),
  modalityCode: z.string().nullable(),
  modalityName: z.string().nullable(),
  examName: z.string().nullable(),
  patientName: z.string().nullable(),
  /** imsec: the referrer's link; session: a signed-in referrer. */
  givenVia: z.enum(['imsec', 'session']),
  answers: z.record(z.string(), z.unknown()),
  createdAt: InstantSchema,
});
export type FeedbackEntry = z.infer<typeof FeedbackEntrySchema>;

/** Counts and the average of each rating question (question name -> average; null with no rating answered). */
export const FeedbackSummaryRowSchema = z.object({
  key: z.string(),
  label: z.string(),
  count: z.number().int().min(0),
  averages: z.record(z.string(), z.number().nullable()),
});
export type FeedbackSummaryRow = z.infer<typeof FeedbackSummaryRowSchema>;

/** A question of the feedback questionnaires as the referrer read it: its title, and its choices' words. */
export const FeedbackQuestionLabelSchema = z.object({
  name: z.string(),
  title: z.string(),
  /** A rating question: its answers are scores (averaged, sortable); else a choice or the referrer's words. */
  rating: z.boolean(),
  /** Answer value -> the choice's words, for questions with choices. */
  choices: z.record(z.string(), z.string()),
});
export type FeedbackQuestionLabel = z.infer<typeof FeedbackQuestionLabelSchema>;

export const FeedbackFilterOptionSchema = z.object({ key: z.string(), label: z.string() });
export type FeedbackFilterOption = z.infer<typeof FeedbackFilterOptionSchema>;

export const FeedbackListResponseSchema = z.object({
  items: z.array(FeedbackEntrySchema),
  /** Every question of the feedback questionnaires, so answers and averages read as the questions did. */
  questions: z.array(FeedbackQuestionLabelSchema),
  total: z.number().int().min(0),
  page: z.number().int().min(1),
  pageSize: z.number().int().min(1),
  /** The summaries, over the feedback the filter keeps. */
  byReferrer: z.array(FeedbackSummaryRowSchema),
  byModality: z.array(FeedbackSummaryRowSchema),
  /** Every referrer and modality with feedback (the filter's choices, whatever the filter). */
  referrers: z.array(FeedbackFilterOptionSchema),
  modalities: z.array(FeedbackFilterOptionSchema),
});
export type FeedbackListResponse = z.infer<typeof FeedbackListResponseSchema>;
