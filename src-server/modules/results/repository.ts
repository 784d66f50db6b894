import type { Queryable } from '../../db/connection';
import { isoTimestamp } from '../../db/sql';

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

/** A booking's appointment and its newest report (null fields when none is delivered yet). */
export type ResultRow = {
  exam_name: string;
  clinic_name: string;
  time_zone: string;
  starts_at: string;
  first_name: string;
  report_id: string | null;
  accession_number: string | null;
  report_text: string | null;
  received_at: string | null;
  referrer_name: string | null;
  pdf_key: string | null;
  pdf_size: number | null;
  study_instance_uid: string | null;
  release_at: string | null;
};

/** A report as the image viewer link needs it. */
export type ReportStudyRow = {
  id: string;
  accession_number: string;
  study_instance_uid: string | null;
  release_at: string;
};

export function createResultsRepository(db: Queryable) {
  return {
    /**
     * The booking's newest report with its appointment; when no report is delivered yet, the
     * booking's first appointment. Null for an unknown key.
     */
    async resultOfBooking(bookingKey: string, tx: Queryable = db): Promise<ResultRow | null> {
      const rows = await tx.query<ResultRow>(
        `select e.name as exam_name, c.name as clinic_name, c.time_zone, ${isoTimestamp('lower(a.during)', 'starts_at')}, p.first_name,
                r.id::text as report_id, r.accession_number, r.report_text, ${isoTimestamp('r.received_at', 'received_at')}, r.referrer_name,
                r.pdf_key, r.pdf_size, r.study_instance_uid, ${isoTimestamp('r.release_at', 'release_at')}
           from appointment a
           join exam e on e.id = a.exam_id
           join clinic c on c.id = a.clinic_id
           join patient p on p.id = a.patient_id
           left join result_report r on r.appointment_id = a.id
          where a.booking_key = $1 and a.status <> 'HELD'
          order by r.received_at desc nulls last, lower(a.during), a.created_at, r.id
          limit 1`,
        [bookingKey],
      );
      return rows[0] ?? null;
    },

    async reportStudy(reportId: string, tx: Queryable = db): Promise<ReportStudyRow | null> {
      const rows = await tx.query<ReportStudyRow>(
        `select id::text as id, accession_number, study_instance_uid, ${isoTimestamp('release_at', 'release_at')}
           from result_report where id = $1::uuid`,
        [reportId],
      );
      return rows[0] ?? null;
    },

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
