import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPORT_PDF_MAX_BYTES, RESULT_MESSAGES, type ResultDelivery, type ResultDeliveryAnswer } from '@contract/api/results';
import { createAuditLogRepository } from '../../db/audit-log';
import type { Database } from '../../db/connection';
import type { Clock } from '../../platform/clock';
import { appError, validationError } from '../../platform/errors';
import type { FileStorage } from '../../platform/storage';
import { checkPdf } from '../attachments/public';
import type { ReferrerNoticeWriter } from './referrer-notice';
import { createResultsRepository } from './repository';

/**
 * Delivery of finalised reports by the provider's RIS and PACS (docs/rules/results.md#delivery).
 * Idempotent by accession number: the same delivery again answers `unchanged` and stores nothing
 * (also when ten arrive at once: the unique accession number decides); a different delivery for
 * a stored accession number is a 409, so a report is never silently replaced.
 */

export interface ResultDeliveryDeps {
  db: Database;
  clock: Clock;
  storage: FileStorage;
  /**
   * Queues the report-ready mail to the referring doctor, in the delivery's transaction
   * (referrer-notice.ts). Without it a delivery naming the referrer's e-mail mails nobody.
   */
  referrerNotice?: () => Promise<ReferrerNoticeWriter>;
}

const PDF_MAGIC = Buffer.from('%PDF-');

/** The delivery's fingerprint: its fields in a fixed order and the PDF's digest (not its base64). */
function deliveryDigest(delivery: ResultDelivery, pdfSha256: string): string {
  const canonical = JSON.stringify([
    delivery.accessionNumber,
    delivery.appointmentSlug,
    delivery.reportText.trim(),
    pdfSha256,
    delivery.referrer.name.trim(),
    delivery.referrer.providerNumber,
    new Date(delivery.releaseAt).toISOString(),
    delivery.study?.studyInstanceUid ?? null,
    // Only when given, so a delivery without it keeps the fingerprint it had before the field existed.
    ...(delivery.referrer.email ? [delivery.referrer.email.toLowerCase()] : []),
  ]);
  return createHash('sha256').update(canonical).digest('hex');
}

export function createResultDelivery(deps: ResultDeliveryDeps) {
  const { db, clock, storage } = deps;
  const repository = createResultsRepository(db);
  const audit = createAuditLogRepository(db);

  /** The PDF checked by its bytes (a PDF, passive, within the size) and stored; answers its key, digest and size. */
  async function storePdf(base64: string): Promise<{ key: string; sha256: string; size: number }> {
    const bytes = Buffer.from(base64, 'base64');
    if (bytes.length === 0 || bytes.length > REPORT_PDF_MAX_BYTES || !bytes.subarray(0, PDF_MAGIC.length).equals(PDF_MAGIC))
      throw validationError('reportPdfBase64', RESULT_MESSAGES.reportPdf);
    const dir = await mkdtemp(join(tmpdir(), 'portal-report-'));
    try {
      const path = join(dir, 'report.pdf');
      await writeFile(path, bytes);
      // The RIS's own report may link the provider's website; scripts, other actions and files still refuse it.
      const checked = await checkPdf(path, { allowLinks: true });
      if (checked.active !== null)
        throw validationError(
          'reportPdfBase64',
          `The report PDF was refused (${checked.active}): scripts, actions, embedded files, or something other than a PDF inside.`,
        );
      const stored = await storage.putFile(path, 'application/pdf');
      return { key: stored.key, sha256: checked.sha256, size: stored.size };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  return {
    async deliver(delivery: ResultDelivery): Promise<ResultDeliveryAnswer> {
      if (!(await repository.appointmentExists(delivery.appointmentSlug)))
        throw validationError('appointmentSlug', 'There is no appointment with this id.');
      const pdf = await storePdf(delivery.reportPdfBase64);
      const digest = deliveryDigest(delivery, pdf.sha256);
      const now = clock.now();
      const referrerEmail = delivery.referrer.email ?? null;
      const notifyReferrer = referrerEmail !== null && deps.referrerNotice ? await deps.referrerNotice() : null;
      const id = await db.transaction(async (tx) => {
        const inserted = await repository.insertReport(
          {
            accessionNumber: delivery.accessionNumber,
            appointmentId: delivery.appointmentSlug,
            reportText: delivery.reportText.trim(),
            pdfKey: pdf.key,
            pdfSha256: pdf.sha256,
            pdfSize: pdf.size,
            referrerName: delivery.referrer.name.trim(),
            referrerProviderNumber: delivery.referrer.providerNumber,
            referrerEmail,
            studyInstanceUid: delivery.study?.studyInstanceUid ?? null,
            releaseAt: delivery.releaseAt,
            receivedAt: now,
            deliverySha256: digest,
          },
          tx,
        );
        if (inserted !== null && referrerEmail !== null && notifyReferrer !== null) await notifyReferrer(inserted, referrerEmail, tx);
        if (inserted !== null)
          await audit.record(
            {
              actor: 'integration',
              action: 'result.delivered',
              subjectType: 'appointment',
              subjectId: delivery.appointmentSlug,
              details: { accessionNumber: delivery.accessionNumber },
              now,
            },
            tx,
          );
        return inserted;
      });
      if (id !== null) return { resultId: id, accessionNumber: delivery.accessionNumber, outcome: 'created' };

      // Stored before: this copy of the PDF is not needed.
      await storage.delete(pdf.key);
      const existing = await repository.byAccession(delivery.accessionNumber);
      if (existing === null) throw new Error('[results] the accession number is neither new nor stored');
      if (existing.delivery_sha256 !== digest)
        throw appError(
          'result_conflict',
          409,
          'A different report was delivered for this accession number before; an amended report needs a new accession number.',
        );
      return { resultId: existing.id, accessionNumber: delivery.accessionNumber, outcome: 'unchanged' };
    },
  };
}

export type ResultDeliveryService = ReturnType<typeof createResultDelivery>;
