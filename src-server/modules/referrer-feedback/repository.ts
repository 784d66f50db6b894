import type { Queryable } from '../../db/connection';
import type { FeedbackFilter } from '@contract/api/referrer-feedback';
import { isoTimestamp } from '../../db/sql';

/** SQL of report-quality feedback (docs/rules/referrers.md#report-quality-feedback); no rules here. */

/** The report feedback is given for, with what the questionnaire answer names. */
export type FeedbackReportRow = {
  id: string;
  accession_number: string;
  referrer_provider_number: string | null;
  exam_slug: string;
  modality_id: string;
  exam_name: string;
  patient_name: string;
  reported_at: string;
};

export type FeedbackQuestionnaireRow = {
  id: string;
  json: Record<string, unknown>;
  modal_size: 'sm' | 'md' | 'lg' | 'xl';
};

export type FeedbackListRow = {
  id: string;
  report_id: string;
  accession_number: string;
  referrer_name: string;
  referrer_provider_number: string | null;
  modality_code: string | null;
  modality_name: string | null;
  exam_name: string | null;
  patient_name: string | null;
  given_via: 'imsec' | 'session';
  answers: Record<string, unknown>;
  created_at: string;
};

export type SummaryRow = {
  key: string;
  label: string;
  count: number;
  question: string | null;
  average: number | null;
};

export type FilterOptionRow = { key: string; label: string };

/** The referrer a feedback is grouped and filtered by: the provider number, else the name. */
const REFERRER_KEY = 'coalesce(r.referrer_provider_number, r.referrer_name)';
const MODALITY_KEY = `coalesce(m.code, '')`;

const FROM = `from referrer_feedback f
           join result_report r on r.id = f.report_id
           left join appointment a on a.id = r.appointment_id
           left join patient p on p.id = a.patient_id
           left join exam e on e.id = a.exam_id
           left join modality m on m.id = e.modality_id`;

const LIST_COLUMNS = `f.id::text as id, f.report_id::text as report_id, r.accession_number, r.referrer_name, r.referrer_provider_number,
       m.code as modality_code, m.name as modality_name, e.name as exam_name,
       case when p.id is null then null else p.first_name || ' ' || p.last_name end as patient_name,
       f.given_via, f.answers, ${isoTimestamp('f.created_at', 'created_at')}`;

/**
 * The filter's where clause and its parameters ($1...): the days from..to are whole days in the
 * filter's zone (from's midnight included, the midnight after to excluded).
 */
function whereOf(filter: FeedbackFilter): { sql: string; params: unknown[] } {
  const conditions: string[] = [];
  const params: unknown[] = [];
  const parameter = (value: unknown): string => `$${params.push(value)}`;
  if (filter.referrer !== undefined) conditions.push(`${REFERRER_KEY} = ${parameter(filter.referrer)}`);
  if (filter.modality !== undefined) conditions.push(`${MODALITY_KEY} = ${parameter(filter.modality)}`);
  if (filter.from !== undefined || filter.to !== undefined) {
    const zone = parameter(filter.timeZone);
    if (filter.from !== undefined) conditions.push(`f.created_at >= (${parameter(filter.from)}::date)::timestamp at time zone ${zone}`);
    if (filter.to !== undefined) conditions.push(`f.created_at < (${parameter(filter.to)}::date + 1)::timestamp at time zone ${zone}`);
  }
  return { sql: conditions.length === 0 ? '' : `where ${conditions.join(' and ')}`, params };
}

/** The order of the filter (ties newest first); a score sorts its numeric answers, feedback without one last. */
function orderOf(filter: FeedbackFilter, parameter: (value: unknown) => string): string {
  const direction = filter.order === 'asc' ? 'asc' : 'desc';
  if (filter.sort === 'date') return `f.created_at ${direction}, f.id`;
  if (filter.sort === 'referrer') return `lower(r.referrer_name) ${direction}, f.created_at desc, f.id`;
  const question = `${parameter(filter.sort.slice('score:'.length))}::text`;
  return `case when jsonb_typeof(f.answers -> ${question}) = 'number' then (f.answers ->> ${question})::numeric end ${direction} nulls last, f.created_at desc, f.id`;
}

const REPORT_COLUMNS = `r.id::text as id, r.accession_number, r.referrer_provider_number, e.slug as exam_slug, e.modality_id::text as modality_id,
     e.name as exam_name, p.first_name || ' ' || p.last_name as patient_name, ${isoTimestamp('r.received_at', 'reported_at')}
   from result_report r join appointment a on a.id = r.appointment_id join exam e on e.id = a.exam_id join patient p on p.id = a.patient_id`;

export function createReferrerFeedbackRepository(db: Queryable) {
  return {
    async reportById(id: string): Promise<FeedbackReportRow | null> {
      const rows = await db.query<FeedbackReportRow>(`select ${REPORT_COLUMNS} where r.id = $1::uuid`, [id]);
      return rows[0] ?? null;
    },

    async reportByAccession(accessionNumber: string): Promise<FeedbackReportRow | null> {
      const rows = await db.query<FeedbackReportRow>(`select ${REPORT_COLUMNS} where r.accession_number = $1`, [accessionNumber]);
      return rows[0] ?? null;
    },

    async hasFeedback(reportId: string): Promise<boolean> {
      const rows = await db.query(`select 1 from referrer_feedback where report_id = $1::uuid`, [reportId]);
      return rows.length > 0;
    },

    /** The questionnaire asked: the active one first in position. */
    async activeQuestionnaire(): Promise<FeedbackQuestionnaireRow | null> {
      const rows = await db.query<FeedbackQuestionnaireRow>(
        `select id::text as id, json, modal_size from referrer_feedback_questionnaire where active order by position, slug limit 1`,
      );
      return rows[0] ?? null;
    },

    /** Every questionnaire's definition (older feedback may answer one no longer active). */
    async allQuestionnaireDefinitions(): Promise<Record<string, unknown>[]> {
      const rows = await db.query<{ json: Record<string, unknown> }>(
        `select json from referrer_feedback_questionnaire order by position, slug`,
      );
      return rows.map((row) => row.json);
    },

    /**
     * Inserts the feedback unless the report has one: null when it had (the unique report_id
     * decides between concurrent inserts, so exactly one wins).
     */
    async insert(
      feedback: {
        reportId: string;
        questionnaireId: string;
        answers: Record<string, unknown>;
        givenVia: 'imsec' | 'session';
        givenBy: string;
      },
      now: Date,
      tx: Queryable = db,
    ): Promise<{ id: string; created_at: string } | null> {
      const rows = await tx.query<{ id: string; created_at: string }>(
        `insert into referrer_feedback (report_id, questionnaire_id, answers, given_via, given_by, created_at)
         values ($1::uuid, $2::uuid, $3::jsonb, $4, $5, $6::timestamptz)
         on conflict (report_id) do nothing
         returning id::text as id, ${isoTimestamp('created_at', 'created_at')}`,
        [
          feedback.reportId,
          feedback.questionnaireId,
          JSON.stringify(feedback.answers),
          feedback.givenVia,
          feedback.givenBy,
          now.toISOString(),
        ],
      );
      return rows[0] ?? null;
    },

    /** How many feedbacks the filter keeps. */
    async count(filter: FeedbackFilter): Promise<number> {
      const where = whereOf(filter);
      const rows = await db.query<{ count: number }>(`select count(*)::int as count ${FROM} ${where.sql}`, where.params);
      return rows[0]?.count ?? 0;
    },

    /** One page of the filter, in its order (ties newest first). */
    async page(filter: FeedbackFilter, limit: number, offset: number): Promise<FeedbackListRow[]> {
      const where = whereOf(filter);
      const params = [...where.params];
      const parameter = (value: unknown): string => `$${params.push(value)}`;
      const order = orderOf(filter, parameter);
      return db.query<FeedbackListRow>(
        `select ${LIST_COLUMNS} ${FROM} ${where.sql} order by ${order} limit ${parameter(limit)} offset ${parameter(offset)}`,
        params,
      );
    },

    /** Every referrer and modality with feedback, by their shown name: the filter's choices. */
    async filterOptions(): Promise<{ referrers: FilterOptionRow[]; modalities: FilterOptionRow[] }> {
      const referrers = await db.query<FilterOptionRow>(
        `select ${REFERRER_KEY} as key, min(r.referrer_name) as label ${FROM} group by ${REFERRER_KEY} order by 2, 1`,
      );
      const modalities = await db.query<FilterOptionRow>(
        `select ${MODALITY_KEY} as key, coalesce(min(m.name), '') as label ${FROM} group by ${MODALITY_KEY} order by 2, 1`,
      );
      return { referrers, modalities };
    },

    /**
     * Per referrer (provider number, else name) or per modality: the number of feedbacks and the
     * average of each rating question, aggregated in SQL. One row per group and question (the
     * question null when `ratingQuestions` is empty); non-numeric answers are left out of averages.
     */
    async summary(by: 'referrer' | 'modality', ratingQuestions: readonly string[], filter: FeedbackFilter): Promise<SummaryRow[]> {
      const group =
        by === 'referrer'
          ? `${REFERRER_KEY} as key, min(r.referrer_name) as label`
          : `${MODALITY_KEY} as key, coalesce(min(m.name), '') as label`;
      const groupBy = by === 'referrer' ? REFERRER_KEY : MODALITY_KEY;
      const where = whereOf(filter);
      const questions = where.params.length + 1;
      return db.query<SummaryRow>(
        `select ${group}, count(distinct f.id)::int as count, q.name as question,
                avg(case when jsonb_typeof(f.answers -> q.name) = 'number' then (f.answers ->> q.name)::numeric end)::float8 as average
           ${FROM}
           left join unnest($${questions}::text[]) as q(name) on true
          ${where.sql}
          group by ${groupBy}, q.name
          order by 1, q.name`,
        [...where.params, ratingQuestions],
      );
    },
  };
}

export type ReferrerFeedbackRepository = ReturnType<typeof createReferrerFeedbackRepository>;
