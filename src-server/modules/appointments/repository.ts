import { createAuditLogRepository } from '../../db/audit-log';
import { CLINIC_ADDRESS_COLUMNS, type ClinicAddressRow } from '../../db/clinic-columns';
import type { Queryable } from '../../db/connection';
import { createBookingRecords } from '../booking/public';

/** SQL only (docs/server.md#module-shape): a booking's appointments, self-service settings, consent, change log. */

export type BookingRow = ClinicAddressRow & {
  id: string;
  status: string;
  exam_slug: string;
  exam_name: string;
  modality_id: string;
  modality_name: string;
  preparation_notes: string;
  starts_ms: number;
  ends_ms: number;
  walk_in_exam: { name: string; prepTime: number; minutesPrior: number } | null;
  confirmed: boolean;
  staff_booking: boolean;
  clinic_slug: string;
  latitude: number;
  longitude: number;
  patient_id: string;
  title: string;
  first_name: string;
  last_name: string;
  email: string | null;
  contact_number: string | null;
  email_unsubscribed: boolean;
};

export type SettingsRow = {
  prior_minutes: number;
  walk_in_reschedule_allowed: boolean;
  cancel_questionnaire_required: boolean;
  consent_notify_patient: boolean;
  booking_request_info_html: string | null;
};

export type ConsentFormRow = {
  id: string;
  title: string;
  html: string;
  signed_name: string | null;
  signed_ms: number | null;
  /** A drawn signature is stored (the bytes are read only by staff, signaturePng). */
  drawn: boolean;
};

const BOOKING_SELECT = `
  select a.id::text as id, a.status, e.slug as exam_slug, e.name as exam_name, m.id::text as modality_id, m.name as modality_name,
         e.preparation_notes,
         extract(epoch from lower(a.during))::float8 * 1000 as starts_ms, extract(epoch from upper(a.during))::float8 * 1000 as ends_ms,
         a.walk_in_exam, (a.confirmed_at is not null) as confirmed, a.staff_booking,
         c.slug as clinic_slug, ${CLINIC_ADDRESS_COLUMNS},
         c.latitude::float8 as latitude, c.longitude::float8 as longitude,
         p.id::text as patient_id, p.title, p.first_name, p.last_name, p.email, p.contact_number,
         -- The unsubscribe record (0032_mail_unsubscribe.sql) is keyed by the normalised address.
         exists (select 1 from mail_recipient r
                  where r.address = lower(btrim(p.email)) and r.unsubscribed_at is not null) as email_unsubscribed
    from appointment a
    join exam e on e.id = a.exam_id
    join modality m on m.id = e.modality_id
    join clinic c on c.id = a.clinic_id
    join patient p on p.id = a.patient_id
   where a.booking_key = $1 and a.status <> 'HELD'`;

export function createAppointmentsRepository(db: Queryable) {
  const auditLog = createAuditLogRepository(db);
  // The appointment rows are booking's (it creates them): their status changes go through it.
  const records = createBookingRecords(db);
  return {
    markCheckedIn: records.markCheckedIn,

    /** Every appointment of a booking (moved ones included), in time order. */
    async bookingRows(bookingKey: string, tx: Queryable = db): Promise<BookingRow[]> {
      return tx.query<BookingRow>(`${BOOKING_SELECT} order by lower(a.during), a.created_at`, [bookingKey]);
    },

    /** The booking an appointment (not a hold) belongs to, or null. */
    async bookingKeyOf(appointmentId: string, tx: Queryable = db): Promise<string | null> {
      const rows = await tx.query<{ booking_key: string }>(`select booking_key from appointment where id = $1::uuid and status <> 'HELD'`, [
        appointmentId,
      ]);
      return rows[0]?.booking_key ?? null;
    },

    /** The same rows, locked for the rest of the transaction (a change re-checks its rules on them). */
    async lockBookingRows(bookingKey: string, tx: Queryable = db): Promise<BookingRow[]> {
      return tx.query<BookingRow>(`${BOOKING_SELECT} order by lower(a.during), a.created_at for update of a`, [bookingKey]);
    },

    setStatus: records.setAppointmentStatus,

    /** The provider's name (the calendar file's PRODID), null before the provider is configured. */
    async providerName(tx: Queryable = db): Promise<string | null> {
      const rows = await tx.query<{ name: string | null }>(`select radiology_config->>'name' as name from provider where id = 1`);
      return rows[0]?.name ?? null;
    },

    async settings(tx: Queryable = db): Promise<SettingsRow> {
      const rows = await tx.query<SettingsRow>(
        `select prior_minutes, walk_in_reschedule_allowed, cancel_questionnaire_required, consent_notify_patient, booking_request_info_html
         from self_service_settings where id = 1`,
      );
      const row = rows[0];
      if (row === undefined) throw new Error('self_service_settings has no row');
      return row;
    },

    async cancelReasons(tx: Queryable = db): Promise<string[]> {
      const rows = await tx.query<{ label: string }>('select label from cancel_reason order by position, label');
      return rows.map((row) => row.label);
    },

    async logChange(
      entry: {
        bookingKey: string;
        action: 'CANCEL' | 'RESCHEDULE' | 'CHANGE' | 'REQUEST_RESCHEDULE' | 'CONFIRM' | 'UNSUBSCRIBE' | 'REVIEW';
        fromStatus: string;
        toStatus: string;
        reasonLabel?: string | null;
        note?: string | null;
        details?: Record<string, unknown>;
        now: Date;
        /** Who changed it: the patient (online), or the provider's side (staff, or its own systems). */
        actor?: 'patient' | 'staff';
      },
      tx: Queryable = db,
    ): Promise<void> {
      await tx.query(
        `insert into appointment_change (booking_key, action, from_status, to_status, reason_label, note, details, actor, occurred_at)
       values ($1, $2, $3, $4, $5, $6, $7::jsonb, $9, $8::timestamptz)`,
        [
          entry.bookingKey,
          entry.action,
          entry.fromStatus,
          entry.toStatus,
          entry.reasonLabel ?? null,
          entry.note ?? null,
          JSON.stringify(entry.details ?? {}),
          entry.now.toISOString(),
          entry.actor ?? 'patient',
        ],
      );
    },

    /** Active consent forms for a booking's modalities (general ones too), with this booking's signatures. */
    async consentForms(bookingKey: string, modalityIds: readonly string[], tx: Queryable = db): Promise<ConsentFormRow[]> {
      return tx.query<ConsentFormRow>(
        `select f.id::text as id, f.title, f.html, s.signed_name, extract(epoch from s.signed_at)::float8 * 1000 as signed_ms,
                (s.signature_png is not null) as drawn
         from consent_form f
         left join consent_signature s on s.consent_form_id = f.id and s.booking_key = $1
        where f.active and (f.modality_id is null or f.modality_id = any($2::uuid[]))
        order by f.position, f.title`,
        [bookingKey, `{${modalityIds.join(',')}}`],
      );
    },

    /**
     * The first signature stands: signing a signed form again changes nothing (a later typed
     * name never drops a drawn signature). Answers whether this call stored it.
     */
    async signConsentForm(
      input: { bookingKey: string; formId: string; signedName: string; signaturePng: Buffer | null; now: Date },
      tx: Queryable = db,
    ): Promise<boolean> {
      // Bytes travel as base64 text: the same on PGlite and node-postgres.
      const rows = await tx.query<{ id: string }>(
        `insert into consent_signature (booking_key, consent_form_id, signed_name, signed_at, signature_png)
         values ($1, $2::uuid, $3, $4::timestamptz, decode($5, 'base64'))
         on conflict (booking_key, consent_form_id) do nothing returning id::text as id`,
        [input.bookingKey, input.formId, input.signedName, input.now.toISOString(), input.signaturePng?.toString('base64') ?? null],
      );
      return rows.length > 0;
    },

    /** The drawn signature of a booking's form, or null (none drawn, not signed, or not this booking's). */
    async signaturePng(bookingKey: string, formId: string, tx: Queryable = db): Promise<Buffer | null> {
      const rows = await tx.query<{ png: string | null }>(
        `select encode(signature_png, 'base64') as png from consent_signature where booking_key = $1 and consent_form_id = $2::uuid`,
        [bookingKey, formId],
      );
      const png = rows[0]?.png;
      return png === undefined || png === null ? null : Buffer.from(png, 'base64');
    },

    async insertDetailsChangeRequest(
      input: { bookingKey: string; patientId: string; changes: Record<string, string>; note: string | null; now: Date },
      tx: Queryable = db,
    ): Promise<string> {
      const rows = await tx.query<{ id: string }>(
        `insert into details_change_request (booking_key, patient_id, changes, note, created_at)
       values ($1, $2::uuid, $3::jsonb, $4, $5::timestamptz) returning id::text as id`,
        [input.bookingKey, input.patientId, JSON.stringify(input.changes), input.note, input.now.toISOString()],
      );
      const id = rows[0]?.id;
      if (id === undefined) throw new Error('insert details_change_request returned no row');
      return id;
    },

    async countOpenDetailsChangeRequests(bookingKey: string, tx: Queryable = db): Promise<number> {
      const rows = await tx.query<{ count: number }>(
        `select count(*)::int as count from details_change_request where booking_key = $1 and status = 'OPEN'`,
        [bookingKey],
      );
      return rows[0]?.count ?? 0;
    },

    /** Security-relevant event; never personal data in details (docs/rules/security.md#audit-log). */
    async audit(
      entry: { actor: string; action: string; subjectType: string; subjectId: string; details: Record<string, unknown>; now: Date },
      tx: Queryable = db,
    ): Promise<void> {
      await auditLog.record(entry, tx);
    },
  };
}

export type AppointmentsRepository = ReturnType<typeof createAppointmentsRepository>;
