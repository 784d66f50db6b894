import type { ReferrerReportSort, SortOrder } from '@contract/api/referrer-reports';
import type { Queryable } from '../../db/connection';
import { FROM_REPORT_WITH_APPOINTMENT } from '../../db/report-joins';
import { isoTimestamp, likeLiteral } from '../../db/sql';

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
  released: boolean;
  unread: boolean;
  /** The row's value of the sort expression as text, for the next page's cursor. */
  sortValue: string;
};

export interface ReferrerReportsFilter {
  providerNumber: string;
  /**
   * Lower-case words, each the prefix of the patient's first or last name or of the accession
   * number, in any order ("example liam" finds Liam Example); null for every report.
   */
  search: string | null;
  sort: ReferrerReportSort;
  order: SortOrder;
  /** Only rows strictly after this one in the sort (its sort value and id), the previous page's last row. */
  before: { value: string; reportId: string } | null;
  /** The signed-in doctor (subject reference): reports without their opening are unread. */
  reader: string;
  limit: number;
  now: Date;
}

/** A LIKE prefix pattern that matches the text literally. */
const likePrefix = (text: string): string => `${likeLiteral(text)}%`;

/**
 * Up to this many patients whose name starts with the search, the search starts from them (name
 * indexes, their appointments, their reports of this referrer); beyond it the referrer's reports
 * are read newest first until a page has matched, which ends early when the prefix is common.
 */
export const FEW_PATIENTS = 500;

/**
 * Each sort's expression and the type its cursor value is cast to. Names and exams compare in
 * lower case; ties are broken by the report id in the same direction, so pages never overlap.
 */
const SORTS: Record<ReferrerReportSort, { expression: string; type: string }> = {
  date: { expression: 'r.received_at', type: 'timestamptz' },
  patient: { expression: `lower(p.last_name || ' ' || p.first_name)`, type: 'text' },
  dateOfBirth: { expression: 'p.date_of_birth', type: 'date' },
  exam: { expression: 'lower(e.name)', type: 'text' },
  status: { expression: '(r.release_at <= $2::timestamptz)', type: 'boolean' },
};

/** The cursor's value: received_at to the microsecond, so rows a fraction of a millisecond apart are neither skipped nor repeated. */
const sortValueColumn = (sort: ReferrerReportSort): string =>
  sort === 'date'
    ? `to_char(r.received_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as "sortValue"`
    : sort === 'dateOfBirth'
      ? `to_char(p.date_of_birth, 'YYYY-MM-DD') as "sortValue"`
      : `(${SORTS[sort].expression})::text as "sortValue"`;

const COLUMNS = `r.id::text as "reportId", p.first_name as "firstName", p.last_name as "lastName",
  p.date_of_birth::text as "dateOfBirth", e.name as "examName", c.name as "clinicName",
  r.accession_number as "accessionNumber", ${isoTimestamp('r.received_at', '"reportedAt"')},
  r.release_at <= $2::timestamptz as released`;

const NAME_MATCHES = (n: number) => `(lower(first_name) like $${n} or lower(last_name) like $${n})`;

const WORD_MATCHES = (n: number) =>
  `(lower(p.first_name) like $${n} or lower(p.last_name) like $${n} or lower(r.accession_number) like $${n})`;

/** At most this many words of a search are used (a name and a surname, with room to spare). */
export const MAX_SEARCH_WORDS = 5;

/** The search's words, the longest (most selective) first. */
export function searchWords(search: string): string[] {
  const words = search.split(/\s+/).filter((word) => word !== '');
  return words.slice(0, MAX_SEARCH_WORDS).sort((a, b) => b.length - a.length);
}

/** @param options.fewPatients - FEW_PATIENTS; tests set 0 to prove the other path answers the same. */
export function createReferrerReportsRepository(db: Queryable, options: { fewPatients?: number } = {}) {
  const fewPatients = options.fewPatients ?? FEW_PATIENTS;
  return {
    /**
     * One page of the referrer's reports, newest first. Every path starts from, or ends in, the
     * condition referrer_provider_number = $1, so another referrer's reports are never answered.
     */
    async page(filter: ReferrerReportsFilter, tx: Queryable = db): Promise<ReferrerReportRow[]> {
      // The limit is written into the text, not bound: with a bound limit the planner cannot see
      // that only a page is wanted and joins all of the referrer's rows before sorting (several
      // times slower on PGlite, measured). It is a server constant, checked to be an integer.
      const limit = Math.trunc(filter.limit);
      if (!Number.isSafeInteger(limit) || limit < 1 || limit > 1000) throw new Error(`[referrer-reports] bad page limit ${filter.limit}`);
      // PostgreSQL refuses a parameter the text does not use: each condition brings its own.
      const params: unknown[] = [filter.providerNumber, filter.now.toISOString()];
      const conditions: string[] = [];
      const [narrowest, ...otherWords] = filter.search === null ? [] : searchWords(filter.search);
      if (narrowest !== undefined) {
        params.push(likePrefix(narrowest));
        const n = params.length;
        const [few] = await tx.query<{ count: number }>(
          `select count(*)::int as count from (select 1 from patient where ${NAME_MATCHES(1)} limit ${fewPatients + 1}) x`,
          [params[n - 1]],
        );
        if ((few?.count ?? fewPatients + 1) <= fewPatients)
          // From the few patients (offset 0 keeps the lateral a per-patient index look-up) and the accession index.
          conditions.push(`r.id in (
            select mine.id from (select id from patient where ${NAME_MATCHES(n)}) named
              cross join lateral (select r2.id from appointment a2 join result_report r2 on r2.appointment_id = a2.id
                                   where a2.patient_id = named.id and r2.referrer_provider_number = $1 offset 0) mine
            union all
            select r3.id from result_report r3 where r3.referrer_provider_number = $1 and lower(r3.accession_number) like $${n})`);
        else conditions.push(WORD_MATCHES(n));
      }
      // Every other word matches the name or the accession number too, in any order.
      for (const word of otherWords) {
        params.push(likePrefix(word));
        conditions.push(WORD_MATCHES(params.length));
      }
      const sort = SORTS[filter.sort];
      const direction = filter.order === 'asc' ? 'asc' : 'desc';
      if (filter.before !== null) {
        params.push(filter.before.value, filter.before.reportId);
        const after = direction === 'asc' ? '>' : '<';
        conditions.push(`(${sort.expression}, r.id) ${after} ($${params.length - 1}::${sort.type}, $${params.length}::uuid)`);
      }
      params.push(filter.reader);
      const unread = `not exists (select 1 from referrer_report_read rr where rr.report_id = r.id and rr.reader = $${params.length}) as unread`;
      return tx.query<ReferrerReportRow>(
        `select ${COLUMNS}, ${unread}, ${sortValueColumn(filter.sort)} ${FROM_REPORT_WITH_APPOINTMENT}
          where r.referrer_provider_number = $1 ${conditions.map((condition) => `and ${condition}`).join(' ')}
          order by ${sort.expression} ${direction}, r.id ${direction}
          limit ${limit}`,
        params,
      );
    },

    /**
     * Records the doctor's first opening of a report, only when the report names their provider
     * number (the same condition as the list): a report of another doctor, opened through its
     * link, marks nothing. Later openings keep the first time.
     */
    async markOpened(opening: { reportId: string; providerNumber: string; reader: string; now: Date }, tx: Queryable = db): Promise<void> {
      await tx.query(
        `insert into referrer_report_read (report_id, reader, first_opened_at)
         select r.id, $3, $4::timestamptz from result_report r where r.id = $1::uuid and r.referrer_provider_number = $2
         on conflict (report_id, reader) do nothing`,
        [opening.reportId, opening.providerNumber, opening.reader, opening.now.toISOString()],
      );
    },
  };
}

export type ReferrerReportsRepository = ReturnType<typeof createReferrerReportsRepository>;
