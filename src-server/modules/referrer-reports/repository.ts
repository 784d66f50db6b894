import type { Queryable } from '../../db/connection';
import { isoTimestamp } from '../../db/sql';

/** SQL for the referring doctor's report list (0018_results.sql, 0023_referrer_reports.sql). */

export type ReferrerReportRow = {
  reportId: string;
  firstName: string;
  lastName: string;
  dateOfBirth: string;
  examName: string;
  clinicName: string;
  accessionNumber: string;
  reportedAt: string;
  /** received_at to the microsecond, for the page cursor: rows a fraction of a millisecond apart are neither skipped nor repeated. */
  cursorAt: string;
  released: boolean;
};

export interface ReferrerReportsFilter {
  providerNumber: string;
  /** Lower-case prefix of a first name, last name or accession number; null for every report. */
  search: string | null;
  /** Only rows strictly older than this (received_at, id), the previous page's last row. */
  before: { receivedAt: string; reportId: string } | null;
  limit: number;
  now: Date;
}

/** A LIKE prefix pattern that matches the text literally (%, _ and \ escaped). */
export const likePrefix = (text: string): string => `${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;

export function createReferrerReportsRepository(db: Queryable) {
  return {
    /**
     * One page of the referrer's reports, newest first. The index result_report_referrer_idx
     * gives them in order; the search and the boundary narrow that one referrer's rows, so
     * another referrer's reports are never read, let alone answered.
     */
    async page(filter: ReferrerReportsFilter, tx: Queryable = db): Promise<ReferrerReportRow[]> {
      // PostgreSQL refuses a parameter the text does not use: each condition brings its own.
      const params: unknown[] = [filter.providerNumber, filter.now.toISOString(), filter.limit];
      const conditions: string[] = [];
      if (filter.search !== null) {
        params.push(likePrefix(filter.search));
        const n = params.length;
        conditions.push(`(lower(p.first_name) like $${n} or lower(p.last_name) like $${n} or lower(r.accession_number) like $${n})`);
      }
      if (filter.before !== null) {
        params.push(filter.before.receivedAt, filter.before.reportId);
        conditions.push(`(r.received_at, r.id) < ($${params.length - 1}::timestamptz, $${params.length}::uuid)`);
      }
      return tx.query<ReferrerReportRow>(
        `select r.id::text as "reportId", p.first_name as "firstName", p.last_name as "lastName",
                p.date_of_birth::text as "dateOfBirth", e.name as "examName", c.name as "clinicName",
                r.accession_number as "accessionNumber", ${isoTimestamp('r.received_at', '"reportedAt"')},
                to_char(r.received_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as "cursorAt",
                r.release_at <= $2::timestamptz as released
           from result_report r
           join appointment a on a.id = r.appointment_id
           join patient p on p.id = a.patient_id
           join exam e on e.id = a.exam_id
           join clinic c on c.id = a.clinic_id
          where r.referrer_provider_number = $1 ${conditions.map((condition) => `and ${condition}`).join(' ')}
          order by r.received_at desc, r.id desc
          limit $3`,
        params,
      );
    },
  };
}

export type ReferrerReportsRepository = ReturnType<typeof createReferrerReportsRepository>;
