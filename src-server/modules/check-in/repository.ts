import type { Queryable } from '../../db/connection';
import { isoTimestamp } from '../../db/sql';
import type { ReferringDoctorRow } from '../referring-doctors/public';

/** SQL for check-in (0014_check_in.sql): the appointment as check-in sees it, the settings, the form's row. */

export interface CheckInSettingsRow extends Record<string, unknown> {
  enabled: boolean;
  prior_minutes: number;
  simple_mode: boolean;
  ask_gender: boolean;
}

export interface CheckInAppointmentRow extends Record<string, unknown> {
  id: string;
  booking_key: string;
  status: string;
  starts_at: string;
  exam_code: string;
  exam_name: string;
  exam_check_in_enabled: boolean;
  referral_required: boolean;
  clinic_slug: string;
  clinic_time_zone: string;
  first_name: string;
  last_name: string;
  date_of_birth: string;
}

export interface NewCheckIn {
  appointmentId: string;
  channel: 'DIGITAL' | 'KIOSK';
  referringDoctorId: string | null;
  referralDate: string | null;
  medicareNumber: string | null;
  medicareReference: string | null;
  gender: string | null;
  now: Date;
}

/** An exam needs a referral: its own flag, or REFERRAL among the document types it asks for. */
const REFERRAL_REQUIRED = `(e.referral_required or exists (
   select 1 from exam_document_type edt join document_type d on d.id = edt.document_type_id
   where edt.exam_id = e.id and d.code = 'REFERRAL'))`;

/** A directory doctor, as the referring-doctor directory reads it. */
export type ReferralDoctorRow = ReferringDoctorRow;

export interface ReferralPrefillRow {
  referralDate: string | null;
  referringDoctor: string | null;
  doctor: ReferralDoctorRow | null;
}

export interface ComingExamRow extends Record<string, unknown> {
  starts_at: string;
  exam_slug: string;
  exam_name: string;
  preparation_notes: string;
  fasting_hours: number | null;
  referral_required: boolean;
}

export function createCheckInRepository(db: Queryable) {
  return {
    async settings(tx: Queryable = db): Promise<CheckInSettingsRow> {
      const rows = await tx.query<CheckInSettingsRow>(`select enabled, prior_minutes, simple_mode, ask_gender from check_in_settings`);
      const row = rows[0];
      if (row === undefined) throw new Error('[check-in] check_in_settings has no row');
      return row;
    },

    /** The appointment of this booking with this id (null for another booking's); `lock` takes its row for the transaction. */
    async appointment(bookingKey: string, appointmentId: string, tx: Queryable = db, lock = false): Promise<CheckInAppointmentRow | null> {
      const rows = await tx.query<CheckInAppointmentRow>(
        `select a.id::text as id, a.booking_key, a.status, ${isoTimestamp('lower(a.during)', 'starts_at')},
                e.exam_code, e.name as exam_name, e.check_in_enabled as exam_check_in_enabled,
                ${REFERRAL_REQUIRED} as referral_required,
                c.slug as clinic_slug, c.time_zone as clinic_time_zone,
                p.first_name, p.last_name, p.date_of_birth::text as date_of_birth
         from appointment a
         join exam e on e.id = a.exam_id
         join clinic c on c.id = a.clinic_id
         join patient p on p.id = a.patient_id
         where a.id = $1::uuid and a.booking_key = $2
         ${lock ? 'for update of a' : ''}`,
        [appointmentId, bookingKey],
      );
      return rows[0] ?? null;
    },

    /** The REFERRAL document type's id, and whether the booking has a referral uploaded. */
    /** The booking's appointments in `statuses` not over at `now`, in time order (the checklist). */
    async comingExams(bookingKey: string, statuses: readonly string[], now: Date, tx: Queryable = db): Promise<ComingExamRow[]> {
      return tx.query<ComingExamRow>(
        `select ${isoTimestamp('lower(a.during)', 'starts_at')}, e.slug as exam_slug, e.name as exam_name, e.preparation_notes, e.fasting_hours,
                ${REFERRAL_REQUIRED} as referral_required
           from appointment a join exam e on e.id = a.exam_id
          where a.booking_key = $1 and a.status = any($2::text[]) and upper(a.during) > $3::timestamptz
          order by lower(a.during), e.name`,
        [bookingKey, `{${statuses.join(',')}}`, now.toISOString()],
      );
    },

    async referral(bookingKey: string, tx: Queryable = db): Promise<{ documentTypeId: string | null; uploaded: boolean }> {
      const rows = await tx.query<{ document_type_id: string | null; uploaded: boolean }>(
        `select d.id::text as document_type_id,
                exists (select 1 from attachment t where t.owner_type = 'APPOINTMENT' and t.owner_key = $1 and t.document_type_id = d.id) as uploaded
         from document_type d where d.code = 'REFERRAL'`,
        [bookingKey],
      );
      const row = rows[0];
      return { documentTypeId: row?.document_type_id ?? null, uploaded: row?.uploaded ?? false };
    },

    /** The latest referral upload's date and doctor, and the directory's doctor when the name matches exactly one. */
    async referralPrefill(bookingKey: string, tx: Queryable = db): Promise<ReferralPrefillRow | null> {
      const rows = await tx.query<{ referral_date: string | null; referring_doctor: string | null }>(
        `select t.referral_date::text as referral_date, t.referring_doctor
           from attachment t join document_type d on d.id = t.document_type_id
          where t.owner_type = 'APPOINTMENT' and t.owner_key = $1 and d.code = 'REFERRAL'
            and (t.referral_date is not null or t.referring_doctor is not null)
          order by t.updated_at desc limit 1`,
        [bookingKey],
      );
      const row = rows[0];
      if (row === undefined) return null;
      // "Dr Ada Lovelace", "ada lovelace": the same doctor; two of that name match none.
      const doctors =
        row.referring_doctor === null
          ? []
          : await tx.query<ReferralDoctorRow>(
              `select id::text as id, first_name, last_name, provider_number, practice_name, city, postcode
                 from referring_doctor
                where lower(first_name || ' ' || last_name) = lower(regexp_replace(btrim($1), '^dr\\.?\\s+', '', 'i'))
                limit 2`,
              [row.referring_doctor],
            );
      return {
        referralDate: row.referral_date,
        referringDoctor: row.referring_doctor,
        doctor: doctors.length === 1 ? (doctors[0] ?? null) : null,
      };
    },

    async doctor(id: string, tx: Queryable = db): Promise<{ provider_number: string; name: string } | null> {
      const rows = await tx.query<{ provider_number: string; name: string }>(
        `select provider_number, first_name || ' ' || last_name as name from referring_doctor where id = $1::uuid`,
        [id],
      );
      return rows[0] ?? null;
    },

    /** Writes what the patient gave; false when the appointment already has a check-in (nothing changes). */
    async insert(checkIn: NewCheckIn, tx: Queryable = db): Promise<boolean> {
      const rows = await tx.query(
        `insert into check_in (appointment_id, channel, referring_doctor_id, referral_date, medicare_number, medicare_reference, gender, created_at)
         values ($1::uuid, $2, $3::uuid, $4::date, $5, $6, $7, $8)
         on conflict (appointment_id) do nothing returning appointment_id`,
        [
          checkIn.appointmentId,
          checkIn.channel,
          checkIn.referringDoctorId,
          checkIn.referralDate,
          checkIn.medicareNumber,
          checkIn.medicareReference,
          checkIn.gender,
          checkIn.now.toISOString(),
        ],
      );
      return rows.length === 1;
    },

    async channel(appointmentId: string, tx: Queryable = db): Promise<'DIGITAL' | 'KIOSK' | null> {
      const rows = await tx.query<{ channel: 'DIGITAL' | 'KIOSK' }>(`select channel from check_in where appointment_id = $1::uuid`, [
        appointmentId,
      ]);
      return rows[0]?.channel ?? null;
    },
  };
}

export type CheckInRepository = ReturnType<typeof createCheckInRepository>;
