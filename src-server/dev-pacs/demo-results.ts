import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { ResultDeliverySchema, type ResultDeliveryAnswer } from '@contract/api/results';
import type { Database } from '../db/connection';
import { DEMO_PROVIDER_DIR } from '../db/seed/demo-provider';
import { renderReportPdf, type ResultDeliveryService } from '../modules/results/public';
import type { Clock } from '../platform/clock';
import { isAppError } from '../platform/errors';
import { appointmentFor, providerName, storedAccessions } from './demo-results-repository';

/**
 * The demo provider's results (resources/demo-provider/results.json): finalised reports for some
 * of its past appointments, delivered at start through the real results delivery, the way a
 * provider's RIS and PACS would post them (docs/rules/results.md#delivery). Each start delivers
 * the ones whose accession number is not stored yet, so it is safe to run on every start and on
 * several servers at once.
 */

export const DEMO_RESULTS_FILE = 'results.json';
const DAY_MS = 24 * 60 * 60 * 1000;

const DeliveryShape = ResultDeliverySchema.shape;

export const DemoResultSchema = z.strictObject({
  /** The demo appointment (appointments.json) the report is for: a past, checked-in one. */
  bookingKey: z.string().regex(/^[A-Za-z0-9_-]{22,}$/, 'a booking key is 22 or more of A-Z a-z 0-9 _ -'),
  accessionNumber: DeliveryShape.accessionNumber,
  /** Headed paragraphs: CLINICAL HISTORY, TECHNIQUE, FINDINGS, IMPRESSION. */
  reportText: DeliveryShape.reportText,
  referrer: DeliveryShape.referrer,
  /** Who signed it, for the PDF. */
  radiologistName: z.string().trim().min(1).max(200),
  /** When the patient may read it, in days from the delivery at start: negative is released already. */
  releaseInDays: z.number().int().min(-60).max(60),
  /** The study the demo image viewer shows, or null (no images, e.g. a report on outside images). */
  studyInstanceUid: z
    .string()
    .max(64)
    .regex(/^[0-9]+(\.[0-9]+)*$/)
    .nullable(),
});
export type DemoResult = z.infer<typeof DemoResultSchema>;

export const DemoResultsFileSchema = z.array(DemoResultSchema).superRefine((results, context) => {
  const seen = new Set<string>();
  results.forEach((result, index) => {
    if (seen.has(result.accessionNumber))
      context.addIssue({
        code: 'custom',
        path: [index, 'accessionNumber'],
        message: `duplicate accession number '${result.accessionNumber}'`,
      });
    seen.add(result.accessionNumber);
  });
});

/** results.json of the demo provider folder, validated; a folder without one has no results. */
export async function loadDemoResults(directory: string = DEMO_PROVIDER_DIR): Promise<DemoResult[]> {
  let text: string;
  try {
    text = await readFile(join(directory, DEMO_RESULTS_FILE), 'utf8');
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return [];
    throw error;
  }
  const parsed = DemoResultsFileSchema.safeParse(JSON.parse(text));
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `- ${DEMO_RESULTS_FILE}: ${issue.path.join('.') || '(whole file)'}: ${issue.message}`,
    );
    throw new Error(`The demo results are not valid:\n${problems.join('\n')}`);
  }
  return parsed.data;
}

export interface SeedDemoResultsDeps {
  db: Database;
  clock: Clock;
  delivery: ResultDeliveryService;
  /** The demo provider folder; default resources/demo-provider. */
  directory?: string;
}

export interface SeedDemoResultsOutcome {
  /** Accession numbers delivered now. */
  delivered: string[];
  /** Accession numbers stored before (by an earlier start or another server). */
  stored: string[];
  /** Results whose appointment this database does not have (seeded from an older demo provider). */
  skipped: { accessionNumber: string; bookingKey: string }[];
}

/**
 * Delivers the demo results not stored yet: renders each report's PDF and posts it through the
 * results delivery with the appointment's id and releaseAt = now + releaseInDays.
 */
export async function seedDemoResults(deps: SeedDemoResultsDeps): Promise<SeedDemoResultsOutcome> {
  const results = await loadDemoResults(deps.directory);
  const outcome: SeedDemoResultsOutcome = { delivered: [], stored: [], skipped: [] };
  if (results.length === 0) return outcome;
  const stored = await storedAccessions(
    deps.db,
    results.map((result) => result.accessionNumber),
  );
  const missing = results.filter((result) => {
    if (stored.has(result.accessionNumber)) outcome.stored.push(result.accessionNumber);
    return !stored.has(result.accessionNumber);
  });
  if (missing.length === 0) return outcome;
  const provider = await providerName(deps.db);
  // The PDF writer (pdfkit) loads only when a report is missing: a warm start delivers none (renderReportPdf loads it).

  for (const result of missing) {
    const appointment = await appointmentFor(deps.db, result.bookingKey);
    if (appointment === null) {
      outcome.skipped.push({ accessionNumber: result.accessionNumber, bookingKey: result.bookingKey });
      continue;
    }
    const pdf = await renderReportPdf({
      providerName: provider,
      patientName: appointment.patient_name,
      dateOfBirth: appointment.date_of_birth,
      examName: appointment.exam_name,
      clinicName: appointment.clinic_name,
      examDate: new Date(appointment.starts_at),
      timeZone: appointment.time_zone,
      accessionNumber: result.accessionNumber,
      referrerName: result.referrer.name,
      reportText: result.reportText,
      radiologistName: result.radiologistName,
    });
    const delivery = ResultDeliverySchema.parse({
      accessionNumber: result.accessionNumber,
      appointmentSlug: appointment.id,
      reportText: result.reportText,
      reportPdfBase64: pdf.toString('base64'),
      referrer: result.referrer,
      releaseAt: new Date(deps.clock.now().getTime() + result.releaseInDays * DAY_MS).toISOString(),
      study: result.studyInstanceUid === null ? null : { studyInstanceUid: result.studyInstanceUid },
    });
    let answer: ResultDeliveryAnswer;
    try {
      answer = await deps.delivery.deliver(delivery);
    } catch (error) {
      // Another server delivered it a moment earlier (its releaseAt differs by milliseconds).
      if (isAppError(error) && error.code === 'result_conflict') {
        outcome.stored.push(result.accessionNumber);
        continue;
      }
      throw error;
    }
    (answer.outcome === 'created' ? outcome.delivered : outcome.stored).push(result.accessionNumber);
  }
  return outcome;
}
