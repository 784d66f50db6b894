import type { PatientLookupRequest } from '@contract/api/patient-lookup';
import type { Queryable } from '../../db/connection';
import type { PatientContactRow } from '../../db/patient-columns';

/** A patient row as the lookup reads it, with their latest appointment (null when none). */
export type FoundPatientRow = PatientContactRow & {
  last_starts_at: Date | string | null;
  last_exam: string | null;
  last_clinic: string | null;
};

/** The phone as one person's: digits only, the Australian country code and leading zeros dropped (as the index in 0031). */
export function lookupPhone(raw: string): string {
  const digits = raw.replace(/\D/g, '');
  const national = digits.startsWith('61') && digits.length === 11 ? digits.slice(2) : digits;
  return national.replace(/^0+/, '');
}

/** The where clause and its parameters for each way of looking up (each matches an index of 0031). */
function condition(request: PatientLookupRequest): { where: string; params: unknown[] } {
  switch (request.by) {
    case 'name':
      // The first name narrows by its start, compared without LIKE so no character is a wildcard.
      return request.firstName === undefined
        ? { where: 'lower(p.last_name) = lower($1) and p.date_of_birth = $2::date', params: [request.lastName, request.dateOfBirth] }
        : {
            where: 'lower(p.last_name) = lower($1) and p.date_of_birth = $2::date and left(lower(p.first_name), length($3)) = lower($3)',
            params: [request.lastName, request.dateOfBirth, request.firstName],
          };
    case 'email':
      return { where: 'lower(btrim(p.email)) = lower($1)', params: [request.email] };
    case 'phone':
      return {
        where: `ltrim(regexp_replace(coalesce(p.contact_number, ''), '\\D', '', 'g'), '0') = $1`,
        params: [lookupPhone(request.phone)],
      };
  }
}

export function createPatientLookupRepository(db: Queryable) {
  return {
    /**
     * The people matching, one row per person (the same details from several bookings are one
     * person, the latest booking's row kept), latest appointment first; at most `limit`.
     */
    async find(request: PatientLookupRequest, limit: number): Promise<FoundPatientRow[]> {
      const { where, params } = condition(request);
      const rows = await db.query<FoundPatientRow>(
        `with matched as (
           select p.*, last.starts_at as last_starts_at, last.exam_name as last_exam, last.clinic_name as last_clinic
             from patient p
             left join lateral (
               select lower(a.during) as starts_at, e.name as exam_name, c.name as clinic_name
                 from appointment a join exam e on e.id = a.exam_id join clinic c on c.id = a.clinic_id
                where a.patient_id = p.id
                order by lower(a.during) desc
                limit 1
             ) last on true
            where ${where}
         ),
         people as (
           select distinct on (lower(first_name), lower(last_name), date_of_birth, lower(coalesce(email, '')), coalesce(contact_number, ''))
                  *
             from matched
            order by lower(first_name), lower(last_name), date_of_birth, lower(coalesce(email, '')), coalesce(contact_number, ''),
                     last_starts_at desc nulls last, created_at desc
         )
         select title, first_name, last_name, date_of_birth::text as date_of_birth, email, contact_number, postcode,
                last_starts_at, last_exam, last_clinic
           from people
          order by last_starts_at desc nulls last, last_name, first_name
          limit ${String(limit)}`,
        params,
      );
      return rows;
    },

    /**
     * Counts one lookup in each window and answers the counts after it. One statement, so
     * parallel lookups cannot all slip under a limit; windows two days old are swept.
     */
    async count(staffRef: string, windows: { kind: 'ten_minutes' | 'day'; start: Date }[], now: Date): Promise<Map<string, number>> {
      await db.query(`delete from staff_lookup_counter where window_start < $1::timestamptz - interval '2 days'`, [now.toISOString()]);
      const rows = await db.query<{ window_kind: string; count: number }>(
        `insert into staff_lookup_counter as c (staff_ref, window_kind, window_start, count)
         select $1, kind, start, 1 from unnest($2::text[], $3::timestamptz[]) as t(kind, start)
         on conflict (staff_ref, window_kind, window_start) do update set count = c.count + 1
         returning window_kind, count`,
        [staffRef, windows.map((window) => window.kind), windows.map((window) => window.start.toISOString())],
      );
      return new Map(rows.map((row) => [row.window_kind, Number(row.count)]));
    },

    /** Takes a refused lookup off the counts again, so waiting is enough to be let in. */
    async uncount(staffRef: string, windows: { kind: 'ten_minutes' | 'day'; start: Date }[]): Promise<void> {
      await db.query(
        `update staff_lookup_counter set count = count - 1
          where staff_ref = $1 and count > 0 and (window_kind, window_start) in (select * from unnest($2::text[], $3::timestamptz[]))`,
        [staffRef, windows.map((window) => window.kind), windows.map((window) => window.start.toISOString())],
      );
    },
  };
}

export type PatientLookupRepository = ReturnType<typeof createPatientLookupRepository>;
