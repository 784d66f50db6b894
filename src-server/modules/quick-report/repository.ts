import type { Queryable } from '../../db/connection';
import { isoTimestamp } from '../../db/sql';

/** SQL for the referrer's quick report: one report with its exam, clinic and patient. */

export interface QuickReportRow extends Record<string, unknown> {
  report_id: string;
  accession_number: string;
  exam_name: string;
  clinic_name: string;
  starts_at: string;
  time_zone: string;
  first_name: string;
  last_name: string;
  date_of_birth: string;
  referrer_name: string;
  report_text: string;
  received_at: string;
  pdf_key: string;
}

export function createQuickReportRepository(db: Queryable) {
  return {
    async report(reportId: string, tx: Queryable = db): Promise<QuickReportRow | null> {
      const rows = await tx.query<QuickReportRow>(
        `select r.id::text as report_id, r.accession_number, e.name as exam_name, c.name as clinic_name,
                ${isoTimestamp('lower(a.during)', 'starts_at')}, c.time_zone, p.first_name, p.last_name,
                to_char(p.date_of_birth, 'YYYY-MM-DD') as date_of_birth, r.referrer_name, r.report_text,
                ${isoTimestamp('r.received_at', 'received_at')}, r.pdf_key
           from result_report r
           join appointment a on a.id = r.appointment_id
           join patient p on p.id = a.patient_id
           join exam e on e.id = a.exam_id
           join clinic c on c.id = a.clinic_id
          where r.id = $1::uuid`,
        [reportId],
      );
      return rows[0] ?? null;
    },
  };
}
