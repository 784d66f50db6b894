import type { Readable } from 'node:stream';
import type { ImageGenerateQuery, ImageState, ReferrerReport } from '@contract/api/quick-report';
import { createAuditLogRepository } from '../../db/audit-log';
import type { Database } from '../../db/connection';
import type { ImageViewerConfig } from '../../config-results';
import type { Clock } from '../../platform/clock';
import { appError } from '../../platform/errors';
import type { SignedLinks } from '../../platform/signed-links';
import type { FileStorage } from '../../platform/storage';
import type { StaffSession } from '../staff-access/public';
import { checkImageLink, createResultsRepository, type ImageGenerationService } from '../results/public';

/**
 * The referring doctor's quick report (docs/rules/referrers.md#quick-report). The referrer imsec
 * is the credential (audience referrer only: a patient's link never opens it); the report is
 * readable from its delivery on. Every opening is audited, naming the signed-in referrer when
 * there is one. A bad link is 403 (audited); an expired one 410 image_link_expired.
 */

export interface QuickReportDeps {
  db: Database;
  clock: Clock;
  storage: FileStorage;
  signedLinks: () => Promise<SignedLinks>;
  config: ImageViewerConfig;
  generation: ImageGenerationService;
  /** Marks the report read in the signed-in referrer's list (referrer-reports); only their own reports. */
  markOpened: (session: StaffSession, reportId: string) => Promise<void>;
}

/** Who opens the report: the signed-in referrer's reference, or the link alone. */
export interface QuickReportReader {
  actor: string;
  /** The signed-in referrer's staff session, when the reader has one with the referrer role. */
  referrer: StaffSession | null;
}

const NO_ACCESS = 'You do not have access to this report.';

export function createQuickReport(deps: QuickReportDeps) {
  const { db, clock } = deps;
  const repository = createResultsRepository(db);
  const audit = createAuditLogRepository(db);

  async function reportIdOf(imsec: string, reader: QuickReportReader): Promise<{ reportId: string; tokenId: string }> {
    const checked = checkImageLink(await deps.signedLinks(), imsec, ['referrer']);
    if (checked.ok) return { reportId: checked.reportId, tokenId: checked.tokenId };
    if (checked.reason === 'expired') throw appError('image_link_expired', 410, 'This report link has expired.');
    await audit.record({
      actor: reader.actor,
      action: 'result.referrer_link_refused',
      subjectType: null,
      subjectId: null,
      details: { reason: checked.reason },
      now: clock.now(),
    });
    throw appError('user_not_have_access_to_images', 403, NO_ACCESS);
  }

  async function opened(action: string, reportId: string, tokenId: string, reader: QuickReportReader, details: object) {
    await audit.record({
      actor: reader.actor,
      action,
      subjectType: 'result_report',
      subjectId: reportId,
      details: { tokenId, ...details },
      now: clock.now(),
    });
  }

  return {
    async report(imsec: string, reader: QuickReportReader): Promise<ReferrerReport> {
      const { reportId, tokenId } = await reportIdOf(imsec, reader);
      await deps.generation.settle(reportId);
      const row = await repository.referrerReport(reportId);
      if (row === null) throw appError('user_not_have_access_to_images', 403, NO_ACCESS);
      await opened('result.referrer_report_opened', reportId, tokenId, reader, { accessionNumber: row.accession_number });
      if (reader.referrer !== null) await deps.markOpened(reader.referrer, reportId);
      return {
        accessionNumber: row.accession_number,
        examName: row.exam_name,
        clinicName: row.clinic_name,
        startsAt: row.starts_at,
        timeZone: row.time_zone,
        patient: { firstName: row.first_name, lastName: row.last_name, dateOfBirth: row.date_of_birth },
        referrerName: row.referrer_name,
        reportText: row.report_text,
        reportedAt: row.received_at,
        images: await deps.generation.state(reportId),
        pacsUrl: deps.config.pacsUrl,
      };
    },

    async pdf(imsec: string, reader: QuickReportReader, disposition: 'inline' | 'attachment') {
      const { reportId, tokenId } = await reportIdOf(imsec, reader);
      const row = await repository.referrerReport(reportId);
      if (row === null) throw appError('user_not_have_access_to_images', 403, NO_ACCESS);
      const file: { stream: Readable; size: number } | null = await deps.storage.open(row.pdf_key);
      if (file === null) throw new Error(`[quick-report] the PDF of report ${reportId} is missing from the file storage`);
      await opened('result.referrer_pdf_opened', reportId, tokenId, reader, { accessionNumber: row.accession_number, disposition });
      return { ...file, fileName: `report-${row.accession_number}.pdf` };
    },

    async generate(query: ImageGenerateQuery, reader: QuickReportReader): Promise<ImageState> {
      const { reportId } = await reportIdOf(query.imsec, reader);
      return deps.generation.request(reportId, query, reader.actor);
    },
  };
}

export type QuickReportService = ReturnType<typeof createQuickReport>;
