import type { Queryable } from '../../db/connection';
import { isoTimestamp } from '../../db/sql';
import { keysetTime, SqlFilter } from './sql-filter';

/**
 * What the FHIR API reads of a booking's documents (attachment, owned by attachments) and of the
 * results (result_report, owned by results), joined to the appointments and booking requests
 * (booking's) for the patient: reads only. Only what may be served is ever selected: clean
 * documents of a booking or booking request, and released reports. Each search is a keyset page
 * in (time, id) order after the previous page's last row. No booking key leaves this file.
 */

export type DocumentRow = {
  id: string;
  document_type_code: string | null;
  document_type_title: string | null;
  file_name: string;
  content_type: string;
  size_bytes: string;
  sha256: string;
  referral_date: string | null;
  referring_doctor: string | null;
  created_at: string;
  patient_id: string;
  /** The booking's appointments (none for a booking request), in time order. */
  appointment_ids: string[];
};

export type ReportRow = {
  id: string;
  accession_number: string;
  report_text: string;
  pdf_size: number;
  study_instance_uid: string | null;
  release_at: string;
  appointment_id: string;
  patient_id: string;
  starts_at: string;
  exam_code: string;
  exam_name: string;
};

/** Half-open time ranges as ISO instants (null: open). */
export interface Bounds {
  from: string | null;
  to: string | null;
}

interface CommonQuery {
  ids?: readonly string[];
  patientIds?: readonly string[];
  /** (time, id) of the previous page's last row. */
  after?: { at: string; id: string };
  limit: number;
}

export interface DocumentQuery extends CommonQuery {
  created?: Bounds;
  /** Document type codes; any of them. */
  types?: readonly string[];
}

export interface ReportQuery extends CommonQuery {
  /** Released at or before this instant: the injected clock's now. */
  now: string;
  effective?: Bounds;
  issued?: Bounds;
  accessions?: readonly string[];
}

/** The patient and appointments of a document's owner: the booking's (not held) appointments, or the booking request. */
const OWNER_OF_DOCUMENT = `
  cross join lateral (
    select ap.patient_id, array_agg(ap.id::text order by lower(ap.during), ap.id) as appointment_ids
      from appointment ap
     where a.owner_type = 'APPOINTMENT' and ap.booking_key = a.owner_key and ap.status <> 'HELD'
     group by ap.patient_id
    union all
    select br.patient_id, array[]::text[] from booking_request br where a.owner_type = 'BOOKING_REQUEST' and br.booking_key = a.owner_key
    limit 1
  ) o`;

/** The filters every search has: ids and patients (a value that is no uuid matches nothing), and the cursor. */
function commonFilter(query: CommonQuery, columns: { id: string; patient: string; time: string }): SqlFilter {
  return new SqlFilter()
    .ids(columns.id, query.ids)
    .ids(columns.patient, query.patientIds)
    .afterTimeKey(columns.time, columns.id, query.after);
}

export function createDocumentsRepository(db: Queryable) {
  return {
    documents(query: DocumentQuery): Promise<DocumentRow[]> {
      const where = commonFilter(query, { id: 'a.id', patient: 'o.patient_id', time: 'a.created_at' })
        .raw(`a.scan_status = 'CLEAN' and a.owner_type in ('APPOINTMENT', 'BOOKING_REQUEST')`)
        .range('a.created_at', query.created);
      if (query.types !== undefined) where.add((n) => `d.code = any(${n}::text[])`, query.types);
      return db.query<DocumentRow>(
        `select a.id::text as id, d.code as document_type_code, d.title as document_type_title, a.file_name, a.content_type,
                a.size_bytes::text as size_bytes, a.sha256, a.referral_date::text as referral_date, a.referring_doctor,
                ${isoTimestamp('a.created_at', 'created_at')}, o.patient_id::text as patient_id, o.appointment_ids
           from attachment a
           left join document_type d on d.id = a.document_type_id
           ${OWNER_OF_DOCUMENT}
          ${where.where}
          order by ${keysetTime('a.created_at')}, a.id
          limit ${Number(query.limit)}`,
        where.params,
      );
    },

    reports(query: ReportQuery): Promise<ReportRow[]> {
      const where = commonFilter(query, { id: 'r.id', patient: 'ap.patient_id', time: 'r.release_at' })
        .add((n) => `r.release_at <= ${n}::timestamptz`, query.now)
        .range('lower(ap.during)', query.effective)
        .range('r.release_at', query.issued);
      if (query.accessions !== undefined) where.add((n) => `r.accession_number = any(${n}::text[])`, query.accessions);
      return db.query<ReportRow>(
        `select r.id::text as id, r.accession_number, r.report_text, r.pdf_size, r.study_instance_uid,
                ${isoTimestamp('r.release_at', 'release_at')}, ap.id::text as appointment_id, ap.patient_id::text as patient_id,
                ${isoTimestamp('lower(ap.during)', 'starts_at')}, e.exam_code, e.name as exam_name
           from result_report r
           join appointment ap on ap.id = r.appointment_id
           join exam e on e.id = ap.exam_id
          ${where.where}
          order by ${keysetTime('r.release_at')}, r.id
          limit ${Number(query.limit)}`,
        where.params,
      );
    },
  };
}

export type DocumentsRepository = ReturnType<typeof createDocumentsRepository>;
