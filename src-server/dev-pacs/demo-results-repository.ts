import type { Database } from '../db/connection';

/** What the demo results read of the demo provider's bookings (demo-results.ts). */

export type AppointmentRow = {
  id: string;
  patient_name: string;
  date_of_birth: string;
  exam_name: string;
  clinic_name: string;
  time_zone: string;
  starts_at: string;
};

export async function storedAccessions(db: Database, accessionNumbers: readonly string[]): Promise<Set<string>> {
  // Arrays go as JSON: the two drivers serialise JS arrays differently.
  const rows = await db.query<{ accession_number: string }>(
    `select accession_number from result_report where accession_number in (select jsonb_array_elements_text($1::jsonb))`,
    [JSON.stringify(accessionNumbers)],
  );
  return new Set(rows.map((row) => row.accession_number));
}

export async function appointmentFor(db: Database, bookingKey: string): Promise<AppointmentRow | null> {
  const rows = await db.query<AppointmentRow>(
    `select a.id::text as id, p.first_name || ' ' || p.last_name as patient_name, p.date_of_birth::text as date_of_birth,
            e.name as exam_name, c.name as clinic_name, c.time_zone,
            to_char(lower(a.during) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as starts_at
       from appointment a
       join patient p on p.id = a.patient_id
       join exam e on e.id = a.exam_id
       join clinic c on c.id = a.clinic_id
      where a.booking_key = $1
      order by lower(a.during)
      limit 1`,
    [bookingKey],
  );
  return rows[0] ?? null;
}

export async function providerName(db: Database): Promise<string> {
  const rows = await db.query<{ name: string | null }>(`select radiology_config ->> 'name' as name from provider limit 1`);
  return rows[0]?.name ?? 'Radiology';
}
