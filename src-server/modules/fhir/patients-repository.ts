import type { Queryable } from '../../db/connection';
import { PATIENT_CONTACT_COLUMNS, type PatientContactRow } from '../../db/patient-columns';
import { keysetTime, SqlFilter } from './sql-filter';
import type { TimeKey } from './search-values';

/**
 * What the FHIR API reads of patients and their bookings: patients, appointments (never a hold:
 * it has no patient yet) and questionnaire answers given for a booking or a booking request
 * (never those of a temporary key: no patient is known for them). Reads only: these tables are
 * written by their owning modules (src-server/db/table-owners.ts). Every search is a keyset page:
 * patients in id order, appointments and answers in (time, id) order.
 */

export type PatientRow = PatientContactRow & { id: string };

export type AppointmentRow = {
  id: string;
  status: string;
  start: Date;
  end: Date;
  created_at: Date;
  updated_at: Date;
  patient_id: string;
  clinic_id: string;
  clinic_name: string;
  exam_id: string;
  exam_code: string;
  exam_name: string;
  referring_doctor_id: string | null;
};

export type AnswerRow = {
  id: string;
  saved_at: Date;
  result: Record<string, unknown>;
  questionnaire_slug: string;
  questionnaire_title: string;
  questionnaire_json: Record<string, unknown>;
  patient_id: string;
  appointment_ids: string[];
};

export interface PatientQuery {
  ids?: readonly string[];
  names?: ReadonlyArray<readonly string[]>;
  birthDates?: { from: string | null; to: string | null };
  emails?: readonly string[];
  after?: string;
  limit: number;
}

export interface TimeOrderedQuery {
  ids?: readonly string[];
  patientIds?: readonly string[];
  /** Instants, [from, to). */
  range?: { from: string | null; to: string | null };
  after?: TimeKey;
  limit: number;
}

export interface AppointmentQuery extends TimeOrderedQuery {
  statuses?: readonly string[];
  /** Each group must match: any of its references (typed or a bare id of any participant). */
  actors?: ReadonlyArray<ReadonlyArray<{ type: string | undefined; id: string }>>;
  locationIds?: readonly string[];
  updated?: { from: string | null; to: string | null };
}

export interface AnswerQuery extends TimeOrderedQuery {
  questionnaires?: readonly string[];
}

/** The participant columns an actor of each type is. */
const ACTOR_COLUMNS: Record<string, string> = {
  Patient: 'a.patient_id',
  Location: 'a.clinic_id',
  HealthcareService: 'a.exam_id',
  Practitioner: 'a.referring_doctor_id',
};

function actorFilter(filter: SqlFilter, groups: AppointmentQuery['actors']): void {
  for (const group of groups ?? []) {
    const alternatives = group.flatMap(({ type, id }) => {
      const columns = type === undefined ? Object.values(ACTOR_COLUMNS) : [ACTOR_COLUMNS[type]].filter((c) => c !== undefined);
      if (columns.length === 0 || !/^[0-9a-f-]{36}$/.test(id)) return [];
      const parameter = filter.param(id);
      return columns.map((column) => `${column} = ${parameter}::uuid`);
    });
    filter.raw(alternatives.length === 0 ? 'false' : `(${alternatives.join(' or ')})`);
  }
}

export function createPatientsRepository(db: Queryable) {
  return {
    patients(query: PatientQuery): Promise<PatientRow[]> {
      const filter = new SqlFilter().ids('p.id', query.ids).prefixes(['p.last_name', 'p.first_name'], query.names);
      if (query.birthDates !== undefined) filter.range('p.date_of_birth', query.birthDates);
      if (query.emails !== undefined)
        filter.add(
          (n) => `lower(p.email) = any(${n}::text[])`,
          query.emails.map((e) => e.toLowerCase()),
        );
      filter.afterId('p.id', query.after);
      return db.query<PatientRow>(
        `select p.id::text as id, ${PATIENT_CONTACT_COLUMNS}
           from patient p ${filter.where} order by p.id limit ${Number(query.limit)}`,
        filter.params,
      );
    },

    appointments(query: AppointmentQuery): Promise<AppointmentRow[]> {
      const filter = new SqlFilter().raw(`a.status <> 'HELD'`).ids('a.id', query.ids).ids('a.patient_id', query.patientIds);
      filter.ids('a.clinic_id', query.locationIds);
      if (query.statuses !== undefined) filter.add((n) => `a.status = any(${n}::text[])`, query.statuses);
      if (query.range !== undefined) filter.range('lower(a.during)', query.range);
      if (query.updated !== undefined) filter.range('a.updated_at', query.updated);
      actorFilter(filter, query.actors);
      filter.afterTimeKey('lower(a.during)', 'a.id', query.after);
      return db.query<AppointmentRow>(
        `select a.id::text as id, a.status, lower(a.during) as start, upper(a.during) as "end", a.created_at, a.updated_at,
                a.patient_id::text as patient_id, a.clinic_id::text as clinic_id, c.name as clinic_name,
                a.exam_id::text as exam_id, e.exam_code, e.name as exam_name, a.referring_doctor_id::text as referring_doctor_id
           from appointment a join clinic c on c.id = a.clinic_id join exam e on e.id = a.exam_id
           ${filter.where} order by ${keysetTime('lower(a.during)')}, a.id limit ${Number(query.limit)}`,
        filter.params,
      );
    },

    answers(query: AnswerQuery): Promise<AnswerRow[]> {
      const filter = new SqlFilter().raw('owner.patient_id is not null').ids('qa.id', query.ids).ids('owner.patient_id', query.patientIds);
      if (query.questionnaires !== undefined) filter.add((n) => `q.slug = any(${n}::text[])`, query.questionnaires);
      if (query.range !== undefined) filter.range('qa.saved_at', query.range);
      filter.afterTimeKey('qa.saved_at', 'qa.id', query.after);
      // The answer's patient and appointments: those of its booking (for an exam's answers, that
      // exam's appointments) or of its booking request.
      return db.query<AnswerRow>(
        `select qa.id::text as id, qa.saved_at, qa.result, q.slug as questionnaire_slug, q.title as questionnaire_title,
                q.json as questionnaire_json, owner.patient_id::text as patient_id, owner.appointment_ids
           from questionnaire_answer qa
           join questionnaire q on q.id = qa.questionnaire_id
           cross join lateral (
             select coalesce(
                      (select a.patient_id from appointment a
                        where qa.owner_type = 'APPOINTMENT' and a.booking_key = qa.owner_key and a.status <> 'HELD' limit 1),
                      (select r.patient_id from booking_request r
                        where qa.owner_type = 'BOOKING_REQUEST' and r.booking_key = qa.owner_key limit 1)) as patient_id,
                    coalesce((select array_agg(a.id::text order by lower(a.during), a.id) from appointment a
                               where qa.owner_type = 'APPOINTMENT' and a.booking_key = qa.owner_key and a.status <> 'HELD'
                                 and (qa.exam_id is null or a.exam_id = qa.exam_id)), '{}') as appointment_ids
           ) owner
           ${filter.where} order by ${keysetTime('qa.saved_at')}, qa.id limit ${Number(query.limit)}`,
        filter.params,
      );
    },
  };
}

export type PatientsRepository = ReturnType<typeof createPatientsRepository>;
