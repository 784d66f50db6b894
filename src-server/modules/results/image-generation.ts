import { createHash } from 'node:crypto';
import type { ImageGenerateQuery, ImageState, ImagesGenerated } from '@contract/api/quick-report';
import { createAuditLogRepository } from '../../db/audit-log';
import type { Database, Queryable } from '../../db/connection';
import type { Clock } from '../../platform/clock';
import { appError, notFound } from '../../platform/errors';
import { createImageGenerationRepository, type GenerationRow } from './image-generation-repository';

/**
 * Image generation (docs/rules/referrers.md#image-generation): a report delivered without a study
 * has no images in the viewer yet. The referrer's quick report page asks for them (POST
 * /api/image_viewer/generate): one request per report is stored, and the RIS/PACS completes it
 * (POST /api/integration/results/{accessionNumber}/images) with the study or a failure. For the
 * demo provider the built-in demo PACS completes a request itself DEMO_GENERATION_MS after it was
 * made, so the page's waiting can be seen and tested without a PACS.
 */

export const DEMO_GENERATION_MS = 4_000;

export interface ImageGenerationDeps {
  db: Database;
  clock: Clock;
  servesDemo: () => Promise<boolean>;
}

/** The synthetic study the demo PACS "generates" for an accession number: a 2.25 UID from its digest. */
export function demoGeneratedStudyUid(accessionNumber: string): string {
  const digest = createHash('sha256').update(`demo-generated:${accessionNumber}`).digest();
  return `2.25.${BigInt(`0x${digest.subarray(0, 16).toString('hex')}`).toString(10)}`;
}

export function imageStateOf(row: Pick<GenerationRow, 'study_instance_uid' | 'status'>): ImageState {
  if (row.study_instance_uid !== null) return 'AVAILABLE';
  if (row.status === 'FAILED') return 'FAILED';
  return row.status === 'REQUESTED' ? 'GENERATING' : 'NOT_GENERATED';
}

export function createImageGeneration(deps: ImageGenerationDeps) {
  const { db, clock } = deps;
  const audit = createAuditLogRepository(db);
  const repository = createImageGenerationRepository(db);

  async function complete(reportId: string, outcome: ImagesGenerated, tx: Queryable): Promise<void> {
    if ('studyInstanceUid' in outcome) await repository.completeWithStudy(reportId, outcome.studyInstanceUid, clock.now(), tx);
    else await repository.fail(reportId, outcome.failure, clock.now(), tx);
  }

  /** The report's images as the quick report page sees them. */
  async function state(reportId: string): Promise<ImageState> {
    const row = await repository.byReport(reportId);
    return row === null ? 'NOT_GENERATED' : imageStateOf(row);
  }

  /** The demo PACS finishes a request that has waited DEMO_GENERATION_MS (a no-op for other providers). */
  async function settle(reportId: string): Promise<void> {
    const row = await repository.byReport(reportId);
    if (row === null || row.status !== 'REQUESTED' || row.requested_at === null) return;
    if (clock.now().getTime() - new Date(row.requested_at).getTime() < DEMO_GENERATION_MS) return;
    if (!(await deps.servesDemo())) return;
    await db.transaction((tx) => complete(reportId, { studyInstanceUid: demoGeneratedStudyUid(row.accession_number) }, tx));
  }

  return {
    state,
    settle,

    /**
     * Asks for the report's images (the imsec's report: the accession number must be its own).
     * Asking again while a request stands, or once the images exist, changes nothing; a failed
     * request may be asked again.
     */
    async request(reportId: string, query: ImageGenerateQuery, actor: string): Promise<ImageState> {
      const row = await repository.byReport(reportId);
      if (row === null) throw notFound('There is no such report.');
      if (row.accession_number !== query.accessionNumber)
        throw appError('accession_mismatch', 403, 'This image link is for another report.');
      if (row.study_instance_uid !== null) return 'AVAILABLE';
      const now = clock.now();
      await db.transaction(async (tx) => {
        await repository.request(
          reportId,
          { repositorySource: query.repositorySource, repositorySourceId: query.repositorySourceId ?? null },
          now,
          tx,
        );
        await audit.record(
          {
            actor,
            action: 'result.images_requested',
            subjectType: 'result_report',
            subjectId: reportId,
            details: { accessionNumber: row.accession_number, repositorySource: query.repositorySource },
            now,
          },
          tx,
        );
      });
      await settle(reportId);
      return state(reportId);
    },

    /** The RIS/PACS reports the outcome of a request; 404 when none stands for the accession number. */
    async completeByAccession(accessionNumber: string, outcome: ImagesGenerated): Promise<ImageState> {
      const row = await repository.byAccession(accessionNumber);
      if (row === null || row.status === null) throw notFound('No image generation was asked for this accession number.');
      await db.transaction((tx) => complete(row.report_id, outcome, tx));
      return state(row.report_id);
    },
  };
}

export type ImageGenerationService = ReturnType<typeof createImageGeneration>;
