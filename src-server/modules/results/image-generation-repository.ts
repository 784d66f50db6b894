import type { Queryable } from '../../db/connection';

/** A report with its image generation request (table image_generation; image-generation.ts). */
export interface GenerationRow extends Record<string, unknown> {
  report_id: string;
  accession_number: string;
  study_instance_uid: string | null;
  status: 'REQUESTED' | 'READY' | 'FAILED' | null;
  requested_at: Date | string | null;
}

export function createImageGenerationRepository(db: Queryable) {
  const rowWhere = async (where: string, value: string, tx: Queryable): Promise<GenerationRow | null> => {
    const rows = await tx.query<GenerationRow>(
      `select r.id::text as report_id, r.accession_number, r.study_instance_uid, g.status, g.requested_at
         from result_report r left join image_generation g on g.report_id = r.id where ${where}`,
      [value],
    );
    return rows[0] ?? null;
  };

  return {
    byReport: (reportId: string, tx: Queryable = db) => rowWhere('r.id = $1::uuid', reportId, tx),
    byAccession: (accessionNumber: string, tx: Queryable = db) => rowWhere('r.accession_number = $1', accessionNumber, tx),

    /** Stores a request; asking again changes nothing unless the last one failed. */
    async request(
      reportId: string,
      source: { repositorySource: string; repositorySourceId: string | null },
      now: Date,
      tx: Queryable = db,
    ): Promise<void> {
      await tx.query(
        `insert into image_generation (report_id, repository_source, repository_source_id, status, requested_at)
         values ($1::uuid, $2, $3, 'REQUESTED', $4)
         on conflict (report_id) do update set status = 'REQUESTED', failure = null, completed_at = null,
                requested_at = excluded.requested_at, repository_source = excluded.repository_source,
                repository_source_id = excluded.repository_source_id
          where image_generation.status = 'FAILED'`,
        [reportId, source.repositorySource, source.repositorySourceId, now.toISOString()],
      );
    },

    /** The images are there: the report gets its study (unless it had one) and the request is READY. */
    async completeWithStudy(reportId: string, studyInstanceUid: string, now: Date, tx: Queryable = db): Promise<void> {
      await tx.query(`update result_report set study_instance_uid = $2 where id = $1::uuid and study_instance_uid is null`, [
        reportId,
        studyInstanceUid,
      ]);
      await tx.query(`update image_generation set status = 'READY', failure = null, completed_at = $2 where report_id = $1::uuid`, [
        reportId,
        now.toISOString(),
      ]);
    },

    async fail(reportId: string, failure: string, now: Date, tx: Queryable = db): Promise<void> {
      await tx.query(`update image_generation set status = 'FAILED', failure = $2, completed_at = $3 where report_id = $1::uuid`, [
        reportId,
        failure,
        now.toISOString(),
      ]);
    },
  };
}
