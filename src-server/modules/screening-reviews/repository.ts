import type { Queryable } from '../../db/connection';
import { PATIENT_CONTACT_COLUMNS, type PatientContactRow } from '../../db/patient-columns';

/** SQL only (docs/server.md#module-shape): screening reviews and what the staff queue shows of their bookings. */

export type ReviewRow = {
  id: string;
  booking_key: string;
  created_at: Date | string;
  expires_at: Date | string;
  status: 'pending' | 'approved' | 'declined' | 'expired';
  reason: string | null;
};

export type HeldAppointmentRow = PatientContactRow & {
  booking_key: string;
  exam_name: string;
  modality_name: string;
  clinic_name: string;
  starts_at: Date | string;
};

export type ReviewAnswerRow = { booking_key: string; title: string; json: Record<string, unknown>; result: Record<string, unknown> };
export type ReviewDocumentRow = { booking_key: string; id: string; file_name: string };

const KEYS = `(select jsonb_array_elements_text($1::jsonb))`;
const REVIEW_COLUMNS = 'id::text as id, booking_key, created_at, expires_at, status, reason';

export function createScreeningReviewsRepository(db: Queryable) {
  return {
    async expireHoursBefore(tx: Queryable = db): Promise<number> {
      const rows = await tx.query<{ hours: number }>('select expire_hours_before as hours from screening_review_settings where id = 1');
      const row = rows[0];
      if (row === undefined) throw new Error('screening_review_settings has no row');
      return Number(row.hours);
    },

    async insert(
      review: { id: string; bookingKey: string; createdAt: Date; expiresAt: Date; reason: string | null },
      tx: Queryable = db,
    ): Promise<void> {
      await tx.query(
        `insert into screening_review (id, booking_key, created_at, expires_at, reason)
         values ($1::uuid, $2, $3::timestamptz, $4::timestamptz, $5)`,
        [review.id, review.bookingKey, review.createdAt.toISOString(), review.expiresAt.toISOString(), review.reason],
      );
    },

    /** Pending reviews, the soonest to expire first (at most `cap`), and how many are pending in all. */
    async pending(cap: number): Promise<{ rows: ReviewRow[]; total: number }> {
      const rows = await db.query<ReviewRow>(
        `select ${REVIEW_COLUMNS} from screening_review where status = 'pending' order by expires_at, id limit ${String(cap)}`,
      );
      const total = await db.query<{ count: number }>(`select count(*)::int as count from screening_review where status = 'pending'`);
      return { rows, total: Number(total[0]?.count ?? 0) };
    },

    /** The held appointments of these bookings with their patient, first first. */
    async heldAppointments(bookingKeys: readonly string[]): Promise<HeldAppointmentRow[]> {
      if (bookingKeys.length === 0) return [];
      return db.query<HeldAppointmentRow>(
        `select a.booking_key, e.name as exam_name, m.name as modality_name, c.name as clinic_name, lower(a.during) as starts_at,
                ${PATIENT_CONTACT_COLUMNS}
           from appointment a
           join exam e on e.id = a.exam_id
           join modality m on m.id = e.modality_id
           join clinic c on c.id = a.clinic_id
           join patient p on p.id = a.patient_id
          where a.booking_key in ${KEYS} and a.status = 'ON_HOLD'
          order by lower(a.during), e.name`,
        [JSON.stringify(bookingKeys)],
      );
    },

    /** The bookings' questionnaire answers, in the questionnaires' order, with the questionnaire to word them. */
    async answers(bookingKeys: readonly string[]): Promise<ReviewAnswerRow[]> {
      if (bookingKeys.length === 0) return [];
      return db.query<ReviewAnswerRow>(
        `select a.owner_key as booking_key, q.title, q.json, a.result
           from questionnaire_answer a join questionnaire q on q.id = a.questionnaire_id
          where a.owner_type = 'APPOINTMENT' and a.owner_key in ${KEYS}
          order by q.position, q.slug, a.scope`,
        [JSON.stringify(bookingKeys)],
      );
    },

    /** The bookings' clean documents (docs/rules/attachments.md), oldest first. */
    async documents(bookingKeys: readonly string[]): Promise<ReviewDocumentRow[]> {
      if (bookingKeys.length === 0) return [];
      return db.query<ReviewDocumentRow>(
        `select owner_key as booking_key, id::text as id, file_name
           from attachment
          where owner_type = 'APPOINTMENT' and owner_key in ${KEYS} and scan_status = 'CLEAN'
          order by created_at, file_name, id`,
        [JSON.stringify(bookingKeys)],
      );
    },

    /** The review, locked for its decision; null when there is none. */
    async lock(id: string, tx: Queryable): Promise<ReviewRow | null> {
      const rows = await tx.query<ReviewRow>(`select ${REVIEW_COLUMNS} from screening_review where id = $1::uuid for update`, [id]);
      return rows[0] ?? null;
    },

    async decide(
      id: string,
      decision: { status: 'approved' | 'declined' | 'expired'; at: Date; byRef: string | null; byName: string | null; note: string | null },
      tx: Queryable,
    ): Promise<void> {
      await tx.query(
        `update screening_review set status = $2, decided_at = $3::timestamptz, decided_by = $4, decided_by_name = $5, note = $6
          where id = $1::uuid`,
        [id, decision.status, decision.at.toISOString(), decision.byRef, decision.byName, decision.note],
      );
    },

    /** Pending reviews past their time, oldest first (at most `limit`). */
    async due(now: Date, limit: number): Promise<string[]> {
      const rows = await db.query<{ id: string }>(
        `select id::text as id from screening_review where status = 'pending' and expires_at <= $1::timestamptz
          order by expires_at, id limit ${String(limit)}`,
        [now.toISOString()],
      );
      return rows.map((row) => row.id);
    },
  };
}
