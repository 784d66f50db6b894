import { z } from 'zod';
import { InstantSchema } from './booking';
import { multiLineText, singleLineText } from './text';

/**
 * Results (docs/rules/results.md). Delivery: the provider's RIS and PACS post a finalised report
 * to POST /api/integration/results with a machine bearer token (INTEGRATION_API_TOKEN_SHA256);
 * idempotent by accession number.
 */

export const RESULT_MESSAGES = {
  accessionNumber: 'The accession number is 1 to 64 letters, digits, dots, hyphens or underscores.',
  reportPdf: 'reportPdfBase64 must be a PDF (base64) of at most 10 MB.',
  studyInstanceUid: 'The StudyInstanceUID is digits separated by dots, at most 64 characters.',
} as const;

/** The PDF's largest size, decoded. */
export const REPORT_PDF_MAX_BYTES = 10 * 1024 * 1024;

export const ResultDeliverySchema = z.strictObject({
  accessionNumber: z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, RESULT_MESSAGES.accessionNumber),
  /** The portal's appointment id (the slug the check-in hand-off gave the RIS). */
  appointmentSlug: z.uuid(),
  reportText: multiLineText().trim().min(1).max(100_000),
  reportPdfBase64: z
    .string()
    .max(Math.ceil((REPORT_PDF_MAX_BYTES * 4) / 3) + 4, RESULT_MESSAGES.reportPdf)
    .regex(/^[A-Za-z0-9+/]+={0,2}$/, RESULT_MESSAGES.reportPdf),
  referrer: z.strictObject({
    name: singleLineText().trim().min(1).max(200),
    providerNumber: z
      .string()
      .regex(/^[0-9]{6}[0-9A-HJ-NP-Y][A-HJKLTWXY]$/)
      .nullable(),
    /** Where the report-ready mail with the quick report link goes (none without it). */
    email: z.email().max(254).nullable().optional(),
  }),
  /** When the patient may read it (e.g. after the referrer has had it for a week). */
  releaseAt: InstantSchema,
  study: z
    .strictObject({
      studyInstanceUid: z
        .string()
        .max(64)
        .regex(/^[0-9]+(\.[0-9]+)*$/, RESULT_MESSAGES.studyInstanceUid),
    })
    .nullable(),
});
export type ResultDelivery = z.infer<typeof ResultDeliverySchema>;

/** created: stored now; unchanged: the same delivery was stored before (nothing changed). */
export const ResultDeliveryAnswerSchema = z.object({
  resultId: z.uuid(),
  accessionNumber: z.string(),
  outcome: z.enum(['created', 'unchanged']),
});
export type ResultDeliveryAnswer = z.infer<typeof ResultDeliveryAnswerSchema>;

/**
 * The patient's result page (GET /api/results/{bookingKey}, a session of type APPOINTMENT_RESULTS
 * or PATIENT_PORTAL for that booking): RELEASED with the report; NOT_RELEASED with when it will be
 * (the provider's rule, e.g. a week after the referrer has it); NOT_AVAILABLE before the
 * RIS has delivered one.
 */
export const RESULT_STATES = ['RELEASED', 'NOT_RELEASED', 'NOT_AVAILABLE'] as const;

/** The appointment the result belongs to, as the result page heads it. */
export const ResultAppointmentSchema = z.object({
  examName: z.string(),
  clinicName: z.string(),
  /** When the exam took place. */
  startsAt: InstantSchema,
  timeZone: z.string(),
  patientFirstName: z.string(),
});

export const PatientResultSchema = z.discriminatedUnion('state', [
  z.object({
    state: z.literal('RELEASED'),
    appointment: ResultAppointmentSchema,
    accessionNumber: z.string(),
    reportText: z.string(),
    /** When the RIS delivered the finalised report. */
    reportedAt: InstantSchema,
    referrerName: z.string(),
    pdfSizeBytes: z.number().int().positive(),
    /**
     * The signed link (imsec) GET /api/image_viewer takes to open the images, valid for a short
     * while (the page asks again when it has expired); null when the report has no study.
     */
    imageViewerLink: z.string().nullable(),
  }),
  z.object({ state: z.literal('NOT_RELEASED'), appointment: ResultAppointmentSchema, releaseAt: InstantSchema }),
  z.object({ state: z.literal('NOT_AVAILABLE'), appointment: ResultAppointmentSchema }),
]);
export type PatientResult = z.infer<typeof PatientResultSchema>;

/** GET /api/results/{bookingKey}/report.pdf: download=true asks for an attachment, else inline. */
export const ReportPdfQuerySchema = z.strictObject({ download: z.enum(['true', 'false']).optional() });

/**
 * The patient match form (docs/rules/results.md#history): in the patient portal (a PATIENT_PORTAL session) the
 * patient confirms their date of birth and e-mail or phone, and sees their earlier appointments
 * with results (historyAppointments); none found is message.patient_matching_error.
 */
export const PatientMatchRequestSchema = z
  .strictObject({
    dateOfBirth: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Please enter a valid date of birth.'),
    email: singleLineText().trim().max(254).optional(),
    phone: z
      .string()
      .trim()
      .regex(/^\+?\d{6,15}$/, 'Please enter a valid phone number.')
      .optional(),
  })
  .refine((form) => (form.email === undefined) !== (form.phone === undefined), {
    message: 'Please enter your e-mail address or your phone number.',
    path: ['email'],
  });
export type PatientMatchRequest = z.infer<typeof PatientMatchRequestSchema>;

export const HistoryAppointmentSchema = z.object({
  /** Opaque id of the report (its PDF: GET /api/results/{bookingKey}/history/{resultId}/report.pdf). */
  resultId: z.uuid(),
  examName: z.string(),
  clinicName: z.string(),
  startsAt: InstantSchema,
  timeZone: z.string(),
  state: z.enum(['RELEASED', 'NOT_RELEASED']),
  releaseAt: InstantSchema,
  /** The report, once released (null before). */
  reportText: z.string().nullable(),
  reportedAt: InstantSchema.nullable(),
  referrerName: z.string().nullable(),
  imageViewerLink: z.string().nullable(),
});
export type HistoryAppointment = z.infer<typeof HistoryAppointmentSchema>;

export const PatientMatchResponseSchema = z.object({ historyAppointments: z.array(HistoryAppointmentSchema) });
export type PatientMatchResponse = z.infer<typeof PatientMatchResponseSchema>;

export const HistoryReportParamsSchema = z.strictObject({
  bookingKey: z.string().regex(/^[A-Za-z0-9_-]{22,64}$/),
  resultId: z.uuid(),
});

export { RESULTS_EXPIRED_PATH, resultPagePath } from './result-paths';
