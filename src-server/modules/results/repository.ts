import type { Queryable } from '../../db/connection';

/** SQL for results (0018_results.sql). */

export interface NewReport {
  accessionNumber: string;
  appointmentId: string;
  reportText: string;
  pdfKey: string;
  pdfSha256: string;
  pdfSize: number;
  referrerName: string;
  referrerProviderNumber: string | null;
  studyInstanceUid: string | null;
  releaseAt: string;
  receivedAt: Date;
  deliverySha256: string;
}

export function createResultsRepository(db: Queryable) {
  return {
    async appointmentExists(appointmentId: string, tx: Queryable = db): Promise<boolean> {
      const rows = await tx.query(`select 1 from appointment where id = $1::uuid`, [appointmentId]);
      return rows.length === 1;
    },

    /** Inserts the report unless its accession number is there already: the new id, or null. */
    async insertReport(report: NewReport, tx: Queryable = db): Promise<string | null> {
      const rows = await tx.query<{ id: string }>(
        `insert into result_report (accession_number, appointment_id, report_text, pdf_key, pdf_sha256, pdf_size, referrer_name,
                                    referrer_provider_number, study_instance_uid, release_at, received_at, delivery_sha256)
         values ($1, $2::uuid, $3, $4, $5, $6, $7, $8, $9, $10::timestamptz, $11, $12)
         on conflict (accession_number) do nothing
         returning id::text as id`,
        [
          report.accessionNumber,
          report.appointmentId,
          report.reportText,
          report.pdfKey,
          report.pdfSha256,
          report.pdfSize,
          report.referrerName,
          report.referrerProviderNumber,
          report.studyInstanceUid,
          report.releaseAt,
          report.receivedAt.toISOString(),
          report.deliverySha256,
        ],
      );
      return rows[0]?.id ?? null;
    },

    async byAccession(accessionNumber: string, tx: Queryable = db): Promise<{ id: string; delivery_sha256: string } | null> {
      const rows = await tx.query<{ id: string; delivery_sha256: string }>(
        `select id::text as id, delivery_sha256 from result_report where accession_number = $1`,
        [accessionNumber],
      );
      return rows[0] ?? null;
    },
  };
}
