import type { Readable } from 'node:stream';
import type { PatientMatchRequest, PatientMatchResponse, PatientResult } from '@contract/api/results';
import { createAuditLogRepository } from '../../db/audit-log';
import type { Database } from '../../db/connection';
import type { Clock } from '../../platform/clock';
import { appError } from '../../platform/errors';
import { bookingKeyRef } from '../../platform/security-audit';
import type { SignedLinks } from '../../platform/signed-links';
import type { FileStorage } from '../../platform/storage';
import { createResultsRepository, type ReportRow, type ResultRow } from './repository';

/**
 * What a signed-in patient reads of their result (docs/rules/results.md#result-page). The report
 * is theirs only from its release time (the provider's rule, e.g. a week after the referrer has
 * it); before that the page says when. Every report, PDF and image link handed out is audited.
 */

/** The image viewer link a patient's result page carries (src-contract/api/image-viewer.ts). */
export const PATIENT_IMAGE_LINK = { purpose: 'imsec.view', audience: 'patient' } as const;
/** Short: the page asks for a new one when it has sat open longer (the link is a bearer credential). */
export const PATIENT_IMAGE_LINK_TTL_MS = 15 * 60_000;

export interface PatientResultsDeps {
  db: Database;
  clock: Clock;
  storage: FileStorage;
  signedLinks: () => Promise<SignedLinks>;
}

/** Who reads, for the audit log (which names the booking only by a hash, never a session id). */
export interface ResultReader {
  shared: boolean;
}

const NOT_AVAILABLE_MESSAGE = 'The report of this appointment is not available to you yet.';

export function createPatientResults(deps: PatientResultsDeps) {
  const { db, clock, storage } = deps;
  const repository = createResultsRepository(db);
  const audit = createAuditLogRepository(db);

  const released = (row: ResultRow, now: Date): boolean =>
    row.report_id !== null && row.release_at !== null && new Date(row.release_at).getTime() <= now.getTime();

  async function record(action: string, bookingKey: string, reader: ResultReader, details: Record<string, unknown>, now: Date) {
    await audit.record({
      actor: 'patient',
      action,
      subjectType: 'booking_key',
      subjectId: bookingKeyRef(bookingKey),
      details: { shared: reader.shared, ...details },
      now,
    });
  }

  async function historyOf(reports: ReportRow[], now: Date): Promise<PatientMatchResponse> {
    const links = await deps.signedLinks();
    return {
      historyAppointments: reports.map((report) => {
        const isReleased = new Date(report.releaseAt).getTime() <= now.getTime();
        return {
          resultId: report.resultId,
          examName: report.examName,
          clinicName: report.clinicName,
          startsAt: report.startsAt,
          timeZone: report.timeZone,
          state: isReleased ? 'RELEASED' : 'NOT_RELEASED',
          releaseAt: report.releaseAt,
          reportText: isReleased ? report.reportText : null,
          reportedAt: isReleased ? report.reportedAt : null,
          referrerName: isReleased ? report.referrerName : null,
          imageViewerLink:
            isReleased && report.studyInstanceUid !== null
              ? links.sign({ ...PATIENT_IMAGE_LINK, subject: report.resultId, ttlMs: PATIENT_IMAGE_LINK_TTL_MS })
              : null,
        };
      }),
    };
  }

  return {
    async result(bookingKey: string, reader: ResultReader): Promise<PatientResult> {
      const row = await repository.resultOfBooking(bookingKey);
      if (row === null) throw appError('result_not_available', 404, NOT_AVAILABLE_MESSAGE);
      const now = clock.now();
      const appointment = {
        examName: row.exam_name,
        clinicName: row.clinic_name,
        startsAt: row.starts_at,
        timeZone: row.time_zone,
        patientFirstName: row.first_name,
      };
      if (row.report_id === null || row.release_at === null) return { state: 'NOT_AVAILABLE', appointment };
      if (!released(row, now)) return { state: 'NOT_RELEASED', appointment, releaseAt: row.release_at };

      const imageViewerLink =
        row.study_instance_uid === null
          ? null
          : (await deps.signedLinks()).sign({ ...PATIENT_IMAGE_LINK, subject: row.report_id, ttlMs: PATIENT_IMAGE_LINK_TTL_MS });
      await record('result.report_opened', bookingKey, reader, { accessionNumber: row.accession_number }, now);
      return {
        state: 'RELEASED',
        appointment,
        accessionNumber: row.accession_number ?? '',
        reportText: row.report_text ?? '',
        reportedAt: row.received_at ?? row.release_at,
        referrerName: row.referrer_name ?? '',
        pdfSizeBytes: row.pdf_size ?? 1,
        imageViewerLink,
      };
    },

    /**
     * The patient match form: the date of birth and the e-mail or phone must be this booking's
     * patient's (so nobody reaches another person's history); then the history, newest exam
     * first. 404 patient_matching_error for a mismatch or an empty history.
     */
    async patientMatch(bookingKey: string, form: PatientMatchRequest, reader: ResultReader): Promise<PatientMatchResponse> {
      const now = clock.now();
      const me = await repository.patientOf(bookingKey);
      const lastNine = (value: string): string => value.replace(/\D/g, '').slice(-9);
      const matches =
        me !== null &&
        me.dateOfBirth === form.dateOfBirth &&
        ((form.email !== undefined && me.email !== null && form.email.toLowerCase() === me.email) ||
          (form.phone !== undefined && me.phone.length >= 9 && lastNine(form.phone) === lastNine(me.phone)));
      const reports = matches ? await repository.reportsOf(bookingKey, 'HISTORY', now, { withUnreleased: true }) : [];
      await record(matches ? 'result.history_opened' : 'result.patient_match_failed', bookingKey, reader, { reports: reports.length }, now);
      if (reports.length === 0) throw appError('patient_matching_error', 404, 'We could not find earlier results for these details.');
      return historyOf(reports, now);
    },

    /**
     * The history of the signed-in booking's own patient (same date of birth and same e-mail or
     * phone, repository.reportsOf): the results sign-in already proved who they are, so nothing
     * is asked again (one sign-in per visit, docs/rules/results.md#history). The booking's own newest report (the one
     * the result page shows) is not repeated; an empty history is an empty list.
     */
    async history(bookingKey: string, reader: ResultReader): Promise<PatientMatchResponse> {
      const now = clock.now();
      // "Earlier" results: the report the result page itself shows is left out of the list.
      const [shown] = await repository.reportsOf(bookingKey, 'RESULT', now, { withUnreleased: true });
      const reports = (await repository.reportsOf(bookingKey, 'HISTORY', now, { withUnreleased: true })).filter(
        (report) => report.resultId !== shown?.resultId,
      );
      await record('result.history_opened', bookingKey, reader, { reports: reports.length }, now);
      return historyOf(reports, now);
    },

    /** A released report of the patient's history as a PDF; 404 for any other. */
    async historyPdf(bookingKey: string, resultId: string, reader: ResultReader, disposition: 'inline' | 'attachment') {
      const now = clock.now();
      const report = (await repository.reportsOf(bookingKey, 'HISTORY', now)).find((row) => row.resultId === resultId);
      if (report === undefined) throw appError('result_not_available', 404, NOT_AVAILABLE_MESSAGE);
      const file = await storage.open(report.pdfKey);
      if (file === null) throw new Error(`[results] the PDF of report ${resultId} is missing from the file storage`);
      await record('result.pdf_opened', bookingKey, reader, { accessionNumber: report.accessionNumber, disposition, history: true }, now);
      return { ...file, fileName: `report-${report.accessionNumber}.pdf` };
    },

    /** The released report's PDF; 404 result_not_available before its release or without one. */
    async reportPdf(
      bookingKey: string,
      reader: ResultReader,
      disposition: 'inline' | 'attachment',
    ): Promise<{ stream: Readable; size: number; fileName: string }> {
      const row = await repository.resultOfBooking(bookingKey);
      const now = clock.now();
      if (row === null || row.pdf_key === null || !released(row, now)) throw appError('result_not_available', 404, NOT_AVAILABLE_MESSAGE);
      const file = await storage.open(row.pdf_key);
      if (file === null) throw new Error(`[results] the PDF of report ${row.report_id ?? '?'} is missing from the file storage`);
      await record('result.pdf_opened', bookingKey, reader, { accessionNumber: row.accession_number, disposition }, now);
      return { ...file, fileName: `report-${row.accession_number ?? 'result'}.pdf` };
    },
  };
}

export type PatientResultsService = ReturnType<typeof createPatientResults>;
