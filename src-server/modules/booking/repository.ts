import type { PatientDetails } from '@contract/api/booking';
import { CLINIC_COLUMNS, type ClinicColumnsRow } from '../../db/clinic-columns';
import { createAuditLogRepository } from '../../db/audit-log';
import type { Queryable } from '../../db/connection';

/** SQL only (docs/server.md): catalogue, clinics, holds, appointments, booking requests. */

export type PreparationRow = {
  exam_slug: string;
  preparation_notes: string;
  preparation_parts: unknown;
  screening_done: boolean;
  referral_uploaded: boolean;
};

export type ExamRow = {
  id: string;
  slug: string;
  name: string;
  exam_code: string;
  modality_id: string;
  modality_code: string;
  modality_name: string;
  priority: number;
  duration_minutes: number;
  preparation_notes: string;
  notes: string | null;
  enquiry_only: boolean;
  medicare_required: boolean;
  body_part_slugs: string[];
  search_terms: string[];
};

export type ModalityRow = {
  id: string;
  code: string;
  name: string;
};

export type ClinicRow = ClinicColumnsRow & {
  modality_ids: string[];
};

export type WalkInExamRow = {
  name: string;
  prep_time: number;
  minutes_prior: number;
};

export type PostcodeRow = {
  id: string;
  latitude: number;
  longitude: number;
};

export type HeldRow = {
  id: string;
  exam_id: string;
  clinic_id: string;
  resource_id: string;
  starts_ms: number;
  ends_ms: number;
  expires_ms: number;
};

/** The staff member who booked on a patient's behalf (0011_staff_booking.sql). */
export type StaffBooker = { subject: string; username: string };

export type NewSlotRow = {
  examId: string;
  start: Date;
  end: Date;
};

/** The patient row a booking stores: the booking form's patient details but the Medicare number, which is only checked. */
export type PatientInput = Omit<PatientDetails, 'medicareNumber'>;

const EXAM_SELECT = `
  select e.id::text as id, e.slug, e.name, e.exam_code, e.modality_id::text as modality_id, m.code as modality_code,
         m.name as modality_name, e.priority, e.duration_minutes, e.preparation_notes, e.notes, e.enquiry_only,
         e.medicare_required, e.search_terms,
         coalesce((select array_agg(b.slug order by b.slug) from exam_body_part eb join body_part b on b.id = eb.body_part_id
                    where eb.exam_id = e.id), '{}') as body_part_slugs
    from exam e join modality m on m.id = e.modality_id`;

/** What a write answers: enough to update the availability index and build the response. */
export type WrittenRow = {
  id: string;
  exam_id: string;
  resource_id: string;
  starts_ms: number;
  ends_ms: number;
};

const TIMES = `extract(epoch from lower(during))::float8 * 1000 as starts_ms, extract(epoch from upper(during))::float8 * 1000 as ends_ms`;

const WRITTEN = `id::text as id, exam_id::text as exam_id, resource_id::text as resource_id, ${TIMES}`;

export function createBookingRepository(db: Queryable) {
  const auditLog = createAuditLogRepository(db);
  return {
    async modalities(tx: Queryable = db): Promise<ModalityRow[]> {
      return tx.query<ModalityRow>('select id::text as id, code, name from modality order by name');
    },

    async bodyParts(tx: Queryable = db): Promise<Array<{ slug: string; name: string }>> {
      return tx.query('select slug, name from body_part order by name');
    },

    async exams(tx: Queryable = db): Promise<ExamRow[]> {
      return tx.query<ExamRow>(`${EXAM_SELECT} order by m.name, e.priority desc, e.name`);
    },

    /** The provider's synonym groups for the exam search, in their order. */
    async searchSynonyms(tx: Queryable = db): Promise<string[][]> {
      const rows = await tx.query<{ terms: string[] }>('select terms from exam_search_synonym order by position');
      return rows.map((row) => row.terms);
    },

    async clinics(tx: Queryable = db): Promise<ClinicRow[]> {
      return tx.query<ClinicRow>(
        `select ${CLINIC_COLUMNS},
                coalesce((select array_agg(distinct x.modality_id::text) from resource x where x.clinic_id = c.id), '{}') as modality_ids
           from clinic c join region r on r.id = c.region_id
          order by c.position, c.slug`,
      );
    },

    async postcode(code: string, tx: Queryable = db): Promise<PostcodeRow | null> {
      const rows = await tx.query<PostcodeRow>(
        'select id::text as id, latitude::float8 as latitude, longitude::float8 as longitude from postcode_location where postcode = $1',
        [code],
      );
      return rows[0] ?? null;
    },

    async walkInExams(modality: string | null, tx: Queryable = db): Promise<WalkInExamRow[]> {
      return tx.query<WalkInExamRow>(
        `select w.name, w.prep_time, w.minutes_prior from walk_in_exam w join modality m on m.id = w.modality_id
          where $1::text is null or m.id::text = $1 or lower(m.code) = lower($1)
          order by w.position, w.name`,
        [modality],
      );
    },

    async providerName(tx: Queryable = db): Promise<string | null> {
      const rows = await tx.query<{ name: string | null }>(`select radiology_config->>'name' as name from provider where id = 1`);
      return rows[0]?.name ?? null;
    },

    // ---- writes: each takes the caller's transaction -------------------------------------------

    /**
     * Deletes expired holds overlapping [start, end) on a resource, so they stop blocking the
     * exclusion constraint; answers the deleted ids (to drop them from the index).
     */
    async deleteExpiredHolds(resourceId: string, start: Date, end: Date, now: Date, tx: Queryable = db): Promise<string[]> {
      const rows = await tx.query<{ id: string }>(
        `delete from appointment
          where resource_id = $1 and status = 'HELD' and hold_expires_at <= $4::timestamptz
            and during && tstzrange($2::timestamptz, $3::timestamptz, '[)')
         returning id::text as id`,
        [resourceId, start.toISOString(), end.toISOString(), now.toISOString()],
      );
      return rows.map((row) => row.id);
    },

    async insertHeld(
      input: { holdId: string; clinicId: string; resourceId: string; expiresAt: Date; slots: readonly NewSlotRow[] },
      tx: Queryable = db,
    ): Promise<WrittenRow[]> {
      return tx.query<WrittenRow>(
        `insert into appointment (clinic_id, resource_id, exam_id, status, during, hold_id, hold_expires_at)
         select $1::uuid, $2::uuid, slot.exam_id, 'HELD', tstzrange(slot.starts, slot.ends, '[)'), $3, $4::timestamptz
           from unnest($5::uuid[], $6::timestamptz[], $7::timestamptz[]) as slot(exam_id, starts, ends)
         returning ${WRITTEN}`,
        [
          input.clinicId,
          input.resourceId,
          input.holdId,
          input.expiresAt.toISOString(),
          `{${input.slots.map((slot) => slot.examId).join(',')}}`,
          `{${input.slots.map((slot) => slot.start.toISOString()).join(',')}}`,
          `{${input.slots.map((slot) => slot.end.toISOString()).join(',')}}`,
        ],
      );
    },

    /** Deletes every expired hold (the periodic sweep); answers the ids. */
    async deleteAllExpiredHolds(now: Date, tx: Queryable = db): Promise<string[]> {
      const rows = await tx.query<{ id: string }>(
        `delete from appointment where status = 'HELD' and hold_expires_at <= $1::timestamptz returning id::text as id`,
        [now.toISOString()],
      );
      return rows.map((row) => row.id);
    },

    async heldRows(holdId: string, tx: Queryable = db): Promise<HeldRow[]> {
      return tx.query<HeldRow>(
        `select id::text as id, exam_id::text as exam_id, clinic_id::text as clinic_id, resource_id::text as resource_id, ${TIMES},
                extract(epoch from hold_expires_at)::float8 * 1000 as expires_ms
           from appointment where hold_id = $1 and status = 'HELD' order by lower(during) for update`,
        [holdId],
      );
    },

    async deleteHold(holdId: string, tx: Queryable = db): Promise<string[]> {
      const rows = await tx.query<{ id: string }>(
        `delete from appointment where hold_id = $1 and status = 'HELD' returning id::text as id`,
        [holdId],
      );
      return rows.map((row) => row.id);
    },

    async insertPatient(patient: PatientInput, tx: Queryable = db): Promise<string> {
      const rows = await tx.query<{ id: string }>(
        `insert into patient (title, first_name, last_name, date_of_birth, email, contact_number, postcode)
         values ($1, $2, $3, $4::date, $5, $6, $7) returning id::text as id`,
        [patient.title, patient.firstName, patient.lastName, patient.dateOfBirth, patient.email, patient.contactNumber, patient.postalCode],
      );
      const id = rows[0]?.id;
      if (id === undefined) throw new Error('insert patient returned no row');
      return id;
    },

    /** Turns a live hold into appointments in place: the time is never free in between. */
    async confirmHold(
      input: {
        holdId: string;
        bookingKey: string;
        patientId: string;
        status: string;
        walkInExam: unknown;
        staffBooking: boolean;
        bookedBy?: StaffBooker | null;
        /** When the held time became a booking, by the app's clock (reminders compare it with their times). */
        createdAt: Date;
      },
      tx: Queryable = db,
    ): Promise<WrittenRow[]> {
      return tx.query<WrittenRow>(
        `update appointment
            set status = $3, booking_key = $2, patient_id = $4::uuid, walk_in_exam = $5::jsonb, staff_booking = $6,
                booked_by_staff_subject = $7, booked_by_staff_username = $8,
                hold_id = null, hold_expires_at = null, updated_at = now(), created_at = $9
          where hold_id = $1 and status = 'HELD'
         returning ${WRITTEN}`,
        [
          input.holdId,
          input.bookingKey,
          input.status,
          input.patientId,
          input.walkInExam === undefined ? null : JSON.stringify(input.walkInExam),
          input.staffBooking,
          input.bookedBy?.subject ?? null,
          input.bookedBy?.username ?? null,
          input.createdAt.toISOString(),
        ],
      );
    },

    async insertAppointments(
      input: {
        bookingKey: string;
        patientId: string;
        clinicId: string;
        resourceId: string;
        status: string;
        walkInExam: unknown;
        staffBooking: boolean;
        bookedBy?: StaffBooker | null;
        slots: readonly NewSlotRow[];
        /** When it was booked, by the app's clock (reminders compare it with their times). */
        createdAt: Date;
      },
      tx: Queryable = db,
    ): Promise<WrittenRow[]> {
      return tx.query<WrittenRow>(
        `insert into appointment (booking_key, patient_id, clinic_id, resource_id, exam_id, status, during, walk_in_exam, staff_booking,
                                  booked_by_staff_subject, booked_by_staff_username, created_at)
         select $1, $2::uuid, $3::uuid, $4::uuid, slot.exam_id, $5, tstzrange(slot.starts, slot.ends, '[)'), $6::jsonb, $7, $11, $12, $13
           from unnest($8::uuid[], $9::timestamptz[], $10::timestamptz[]) with ordinality as slot(exam_id, starts, ends, position)
          order by slot.position
         returning ${WRITTEN}`,
        [
          input.bookingKey,
          input.patientId,
          input.clinicId,
          input.resourceId,
          input.status,
          input.walkInExam === undefined ? null : JSON.stringify(input.walkInExam),
          input.staffBooking,
          `{${input.slots.map((slot) => slot.examId).join(',')}}`,
          `{${input.slots.map((slot) => slot.start.toISOString()).join(',')}}`,
          `{${input.slots.map((slot) => slot.end.toISOString()).join(',')}}`,
          input.bookedBy?.subject ?? null,
          input.bookedBy?.username ?? null,
          input.createdAt.toISOString(),
        ],
      );
    },

    /** Moves appointments (in exam order) to these slots on one resource, keeping their ids: one statement, so one availability change. */
    async moveAppointments(
      ids: readonly string[],
      resourceId: string,
      slots: readonly NewSlotRow[],
      tx: Queryable = db,
    ): Promise<WrittenRow[]> {
      return tx.query<WrittenRow>(
        `update appointment set resource_id = $1::uuid, during = tstzrange(slot.starts, slot.ends, '[)')
           from unnest($2::uuid[], $3::timestamptz[], $4::timestamptz[]) as slot(appointment_id, starts, ends)
          where appointment.id = slot.appointment_id
         returning appointment.id::text as id, appointment.exam_id::text as exam_id, appointment.resource_id::text as resource_id,
                   extract(epoch from lower(appointment.during))::float8 * 1000 as starts_ms,
                   extract(epoch from upper(appointment.during))::float8 * 1000 as ends_ms`,
        [
          resourceId,
          `{${ids.join(',')}}`,
          `{${slots.map((slot) => slot.start.toISOString()).join(',')}}`,
          `{${slots.map((slot) => slot.end.toISOString()).join(',')}}`,
        ],
      );
    },

    async insertBookingRequest(
      input: {
        slug: string;
        bookingKey: string;
        examId: string;
        clinicId: string | null;
        patientId: string;
        patientNotes: string;
        /** docs/rules/chat.md#the-server */
        channel: 'web' | 'chat';
        preferredTimes: readonly string[];
        screeningByPhone: boolean;
      },
      tx: Queryable = db,
    ): Promise<void> {
      await tx.query(
        `insert into booking_request (slug, booking_key, exam_id, clinic_id, patient_id, patient_notes, channel, preferred_times, screening_by_phone)
         values ($1, $2, $3::uuid, $4::uuid, $5::uuid, $6, $7, $8::text[], $9)`,
        [
          input.slug,
          input.bookingKey,
          input.examId,
          input.clinicId,
          input.patientId,
          input.patientNotes,
          input.channel,
          [...input.preferredTimes],
          input.screeningByPhone,
        ],
      );
    },

    /** Security-relevant event; never personal data in details (docs/rules/security.md#audit-log). */
    async audit(
      input: { actor: string; action: string; subjectType: string; subjectId: string; details: Record<string, unknown> },
      tx: Queryable = db,
    ): Promise<void> {
      await auditLog.record(input, tx);
    },

    /** Each exam of a booking with its preparation, and whether its screening and a referral are done online (preparation.ts). */
    async preparationRows(bookingKey: string, tx: Queryable = db): Promise<PreparationRow[]> {
      return tx.query<PreparationRow>(
        `select distinct on (e.slug) e.slug as exam_slug, e.preparation_notes, e.preparation_parts,
                exists (select 1 from questionnaire_answer qa join questionnaire qn on qn.id = qa.questionnaire_id
                         where qa.owner_type = 'APPOINTMENT' and qa.owner_key = $1 and qn.type = 'BOOKING_FORM'
                           and (qa.exam_id = e.id or qa.modality_id = e.modality_id)) as screening_done,
                exists (select 1 from attachment t join document_type d on d.id = t.document_type_id
                         where t.owner_type = 'APPOINTMENT' and t.owner_key = $1 and d.code = 'REFERRAL') as referral_uploaded
           from appointment a join exam e on e.id = a.exam_id
          where a.booking_key = $1
          order by e.slug`,
        [bookingKey],
      );
    },
  };
}

export type BookingRepository = ReturnType<typeof createBookingRepository>;
