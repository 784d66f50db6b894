import type { Queryable } from '../../db/connection';
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
  exam_name: string | null;
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

    async count(): Promise<number> {
      const rows = await db.query<{ count: number }>(`select count(*)::int as count from referrer_feedback`);
      return rows[0]?.count ?? 0;
    },

    /** One page, newest first. */
    async page(limit: number, offset: number): Promise<FeedbackListRow[]> {
      return db.query<FeedbackListRow>(
        `select f.id::text as id, f.report_id::text as report_id, r.accession_number, r.referrer_name, r.referrer_provider_number,
                m.code as modality_code, e.name as exam_name, f.given_via, f.answers, ${isoTimestamp('f.created_at', 'created_at')}
           from referrer_feedback f
           join result_report r on r.id = f.report_id
           left join appointment a on a.id = r.appointment_id
           left join exam e on e.id = a.exam_id
           left join modality m on m.id = e.modality_id
          order by f.created_at desc, f.id
          limit $1 offset $2`,
        [limit, offset],
      );
    },

    /**
     * Per referrer (provider number, else name) or per modality: the number of feedbacks and the
     * average of each rating question, aggregated in SQL. One row per group and question (the
     * question null when `ratingQuestions` is empty); non-numeric answers are left out of averages.
     */
    async summary(by: 'referrer' | 'modality', ratingQuestions: readonly string[]): Promise<SummaryRow[]> {
      const group =
        by === 'referrer'
          ? `coalesce(r.referrer_provider_number, r.referrer_name) as key, min(r.referrer_name) as label`
          : `coalesce(m.code, '') as key, coalesce(min(m.name), '') as label`;
      const groupBy = by === 'referrer' ? 'coalesce(r.referrer_provider_number, r.referrer_name)' : `coalesce(m.code, '')`;
      return db.query<SummaryRow>(
        `select ${group}, count(distinct f.id)::int as count, q.name as question,
                avg(case when jsonb_typeof(f.answers -> q.name) = 'number' then (f.answers ->> q.name)::numeric end)::float8 as average
           from referrer_feedback f
           join result_report r on r.id = f.report_id
           left join appointment a on a.id = r.appointment_id
           left join exam e on e.id = a.exam_id
           left join modality m on m.id = e.modality_id
           left join unnest($1::text[]) as q(name) on true
          group by ${groupBy}, q.name
          order by 1, q.name`,
        [ratingQuestions],
      );
    },
  };
}

export type ReferrerFeedbackRepository = ReturnType<typeof createReferrerFeedbackRepository>;
