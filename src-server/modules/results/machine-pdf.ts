import type { Readable } from 'node:stream';
import { createAuditLogRepository } from '../../db/audit-log';
import type { Queryable } from '../../db/connection';
import type { FileStorage } from '../../platform/storage';
import { createResultsRepository } from './repository';

/**
 * A released report's PDF for a machine reader (the FHIR API's Binary; its caller has checked the
 * client's scope), audited like a patient's opening. Null before the release or for an unknown id,
 * so an unreleased report cannot be told from none.
 */
export async function openReleasedReportPdf(
  q: Queryable,
  storage: FileStorage,
  reportId: string,
  audit: { actor: string; now: Date },
): Promise<{ contentType: 'application/pdf'; size: number; stream: Readable } | null> {
  const row = await createResultsRepository(q).releasedPdf(reportId, audit.now);
  if (row === null) return null;
  const file = await storage.open(row.pdf_key);
  if (file === null) throw new Error(`[results] the PDF of report ${reportId} is missing from the file storage`);
  await createAuditLogRepository(q).record({
    ...audit,
    action: 'result.pdf_opened',
    subjectType: 'result_report',
    subjectId: reportId,
    details: { accessionNumber: row.accession_number, via: 'fhir' },
  });
  return { contentType: 'application/pdf', size: file.size, stream: file.stream };
}
