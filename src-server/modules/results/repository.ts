import type { Queryable } from '../../db/connection';
import { FROM_REPORT_WITH_APPOINTMENT } from '../../db/report-joins';
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
  referrerEmail: string | null;
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

/** A report as the history and the shares list it. */
export type ReportRow = {
  resultId: string;
  examName: string;
  clinicName: string;
  startsAt: string;
  timeZone: string;
  reportText: string;
  reportedAt: string;
  releaseAt: string;
  referrerName: string;
  studyInstanceUid: string | null;
  pdfKey: string;
  accessionNumber: string;
};

const REPORT_COLUMNS = `r.id::text as "resultId", e.name as "examName", c.name as "clinicName", ${isoTimestamp('lower(a.during)', '"startsAt"')},
  c.time_zone as "timeZone", r.report_text as "reportText", ${isoTimestamp('r.received_at', '"reportedAt"')},
  ${isoTimestamp('r.release_at', '"releaseAt"')}, r.referrer_name as "referrerName",
  r.study_instance_uid as "studyInstanceUid", r.pdf_key as "pdfKey", r.accession_number as "accessionNumber"`;

/**
 * Whose reports count as the booking's patient's history: every booking of a patient with the
 * same date of birth and the same e-mail or phone (one person may be several patient rows,
 * one per booking made), not only this booking's row.
 */
const SAME_PERSON = `p.date_of_birth = me.date_of_birth
  and (lower(p.email) = me.email or (me.phone <> '' and regexp_replace(coalesce(p.contact_number, ''), '\\D', '', 'g') = me.phone))`;

/** A report as its referring doctor reads it: the exam, clinic and patient with it. */
export interface ReferrerReportRow extends Record<string, unknown> {
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

export interface DueReleaseNotice extends Record<string, unknown> {
  id: string;
  booking_key: string;
  email: string | null;
  first_name: string;
  exam_name: string;
  starts_at: string;
  time_zone: string;
}

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

    /**
     * Reports of the booking (RESULT: its newest) or of its patient's history (HISTORY, newest
     * exam first, at most 200), released ones only unless `withUnreleased`.
     */
    async reportsOf(
      bookingKey: string,
      scope: 'RESULT' | 'HISTORY',
      now: Date,
      options: { withUnreleased?: boolean } = {},
      tx: Queryable = db,
    ): Promise<ReportRow[]> {
      // $2 is always bound (PostgreSQL refuses a parameter the text does not use): true or the release check.
      const released = options.withUnreleased === true ? 'and $2::timestamptz is not null' : 'and r.release_at <= $2';
      if (scope === 'RESULT')
        return tx.query<ReportRow>(
          `select ${REPORT_COLUMNS}
             from result_report r join appointment a on a.id = r.appointment_id
             join exam e on e.id = a.exam_id join clinic c on c.id = a.clinic_id
            where a.booking_key = $1 ${released}
            order by r.received_at desc, r.id limit 1`,
          [bookingKey, now.toISOString()],
        );
      return tx.query<ReportRow>(
        `with me as (
           select p.date_of_birth, lower(p.email) as email, regexp_replace(coalesce(p.contact_number, ''), '\\D', '', 'g') as phone
             from appointment a join patient p on p.id = a.patient_id
            where a.booking_key = $1 order by a.created_at, a.id limit 1)
         select ${REPORT_COLUMNS}
           from me, result_report r join appointment a on a.id = r.appointment_id join patient p on p.id = a.patient_id
           join exam e on e.id = a.exam_id join clinic c on c.id = a.clinic_id
          where ${SAME_PERSON} ${released}
          order by lower(a.during) desc, r.received_at desc, r.id limit 200`,
        [bookingKey, now.toISOString()],
      );
    },

    /** The booking's patient's date of birth, e-mail and phone digits (the patient match form's check). */
    async patientOf(bookingKey: string, tx: Queryable = db): Promise<{ dateOfBirth: string; email: string | null; phone: string } | null> {
      const rows = await tx.query<{ dateOfBirth: string; email: string | null; phone: string }>(
        `select p.date_of_birth::text as "dateOfBirth", lower(p.email) as email,
                regexp_replace(coalesce(p.contact_number, ''), '\\D', '', 'g') as phone
           from appointment a join patient p on p.id = a.patient_id where a.booking_key = $1 order by a.created_at, a.id limit 1`,
        [bookingKey],
      );
      return rows[0] ?? null;
    },

    /** One report with its exam, clinic and patient (the referrer's mail and quick report). */
    async referrerReport(reportId: string, tx: Queryable = db): Promise<ReferrerReportRow | null> {
      const rows = await tx.query<ReferrerReportRow>(
        `select r.id::text as report_id, r.accession_number, e.name as exam_name, c.name as clinic_name,
                ${isoTimestamp('lower(a.during)', 'starts_at')}, c.time_zone, p.first_name, p.last_name,
                to_char(p.date_of_birth, 'YYYY-MM-DD') as date_of_birth, r.referrer_name, r.report_text,
                ${isoTimestamp('r.received_at', 'received_at')}, r.pdf_key
           ${FROM_REPORT_WITH_APPOINTMENT}
          where r.id = $1::uuid`,
        [reportId],
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

    /** A released report's PDF key (release_at at or before now), for the FHIR API's Binary; null before its release. */
    async releasedPdf(reportId: string, now: Date, tx: Queryable = db): Promise<{ pdf_key: string; accession_number: string } | null> {
      const rows = await tx.query<{ pdf_key: string; accession_number: string }>(
        `select pdf_key, accession_number from result_report where id = $1::uuid and release_at <= $2::timestamptz`,
        [reportId, now.toISOString()],
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
                                    referrer_provider_number, study_instance_uid, release_at, received_at, delivery_sha256, referrer_email)
         values ($1, $2::uuid, $3, $4, $5, $6, $7, $8, $9, $10::timestamptz, $11, $12, $13)
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
          report.referrerEmail,
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

    /**
     * Reports released by `now` whose patient is not yet told, oldest release first, locked for this
     * transaction (skip locked: two servers sweeping at once never mail one report twice).
     */
    async dueReleaseNotices(now: Date, limit: number, tx: Queryable = db): Promise<DueReleaseNotice[]> {
      return tx.query<DueReleaseNotice>(
        `select r.id::text as id, a.booking_key, p.email, p.first_name, e.name as exam_name,
                ${isoTimestamp('lower(a.during)', 'starts_at')}, c.time_zone
           ${FROM_REPORT_WITH_APPOINTMENT}
          where r.notified_at is null and r.release_at <= $1
          order by r.release_at limit $2
          for update of r skip locked`,
        [now.toISOString(), limit],
      );
    },

    async markReleaseNotified(reportId: string, now: Date, tx: Queryable = db): Promise<void> {
      await tx.query(`update result_report set notified_at = $2 where id = $1::uuid`, [reportId, now.toISOString()]);
    },
  };
}
