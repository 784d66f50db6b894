import { createHash } from 'node:crypto';
import type { ImageGenerateQuery, ImageState, ImagesGenerated } from '@contract/api/quick-report';
import { createAuditLogRepository } from '../../db/audit-log';
import type { Database, Queryable } from '../../db/connection';
import type { Clock } from '../../platform/clock';
import { appError, notFound } from '../../platform/errors';

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

interface GenerationRow extends Record<string, unknown> {
  report_id: string;
  accession_number: string;
  study_instance_uid: string | null;
  status: 'REQUESTED' | 'READY' | 'FAILED' | null;
  requested_at: Date | string | null;
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

  const rowOf = async (where: string, value: string): Promise<GenerationRow | null> => {
    const rows = await db.query<GenerationRow>(
      `select r.id::text as report_id, r.accession_number, r.study_instance_uid, g.status, g.requested_at
         from result_report r left join image_generation g on g.report_id = r.id where ${where}`,
      [value],
    );
    return rows[0] ?? null;
  };

  async function complete(reportId: string, outcome: ImagesGenerated, tx: Queryable): Promise<void> {
    const now = clock.now().toISOString();
    if ('studyInstanceUid' in outcome) {
      await tx.query(`update result_report set study_instance_uid = $2 where id = $1::uuid and study_instance_uid is null`, [
        reportId,
        outcome.studyInstanceUid,
      ]);
      await tx.query(`update image_generation set status = 'READY', failure = null, completed_at = $2 where report_id = $1::uuid`, [
        reportId,
        now,
      ]);
    } else {
      await tx.query(`update image_generation set status = 'FAILED', failure = $2, completed_at = $3 where report_id = $1::uuid`, [
        reportId,
        outcome.failure,
        now,
      ]);
    }
  }

  /** The report's images as the quick report page sees them. */
  async function state(reportId: string): Promise<ImageState> {
    const row = await rowOf('r.id = $1::uuid', reportId);
    return row === null ? 'NOT_GENERATED' : imageStateOf(row);
  }

  /** The demo PACS finishes a request that has waited DEMO_GENERATION_MS (a no-op for other providers). */
  async function settle(reportId: string): Promise<void> {
    const row = await rowOf('r.id = $1::uuid', reportId);
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
      const row = await rowOf('r.id = $1::uuid', reportId);
      if (row === null) throw notFound('There is no such report.');
      if (row.accession_number !== query.accessionNumber)
        throw appError('accession_mismatch', 403, 'This image link is for another report.');
      if (row.study_instance_uid !== null) return 'AVAILABLE';
      const now = clock.now();
      await db.transaction(async (tx) => {
        await tx.query(
          `insert into image_generation (report_id, repository_source, repository_source_id, status, requested_at)
           values ($1::uuid, $2, $3, 'REQUESTED', $4)
           on conflict (report_id) do update set status = 'REQUESTED', failure = null, completed_at = null,
                  requested_at = excluded.requested_at, repository_source = excluded.repository_source,
                  repository_source_id = excluded.repository_source_id
            where image_generation.status = 'FAILED'`,
          [reportId, query.repositorySource, query.repositorySourceId ?? null, now.toISOString()],
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
      const row = await rowOf('r.accession_number = $1', accessionNumber);
      if (row === null || row.status === null) throw notFound('No image generation was asked for this accession number.');
      await db.transaction((tx) => complete(row.report_id, outcome, tx));
      return state(row.report_id);
    },
  };
}

export type ImageGenerationService = ReturnType<typeof createImageGeneration>;
