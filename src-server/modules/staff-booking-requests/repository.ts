import type { Queryable } from '../../db/connection';
import { PATIENT_CONTACT_COLUMNS, type PatientContactRow } from '../../db/patient-columns';

/** SQL only (docs/server.md#module-shape): booking requests grouped by booking key, and their handling. */

/** One request (all rows of a booking key) as the queue reads it. */
export type QueueRow = {
  booking_key: string;
  received_at: Date | string;
  live: boolean;
  /** The patient is in a conversation with the provider's chat service about it (type CHAT, not booked). */
  with_chat_service: boolean;
  handled_at: Date | string | null;
  handled_by_name: string | null;
  note: string | null;
};

export type ExamRow = PatientContactRow & {
  booking_key: string;
  exam_name: string;
  modality_name: string;
  clinic_name: string | null;
  patient_notes: string;
  channel: 'web' | 'chat';
  preferred_times: string[];
  screening_by_phone: boolean;
};

export type ReferralFileRow = { booking_key: string; id: string; file_name: string };

/** A request is open while one of its exams is not cancelled and nobody has handled it. */
const REQUESTS = `
  select r.booking_key, min(r.created_at) as received_at, bool_or(r.status <> 'CANCELED') as live,
         bool_or(r.status <> 'CANCELED' and r.type = 'CHAT') and h.handled_at is null as with_chat_service, h.handled_at, h.handled_by_name, h.note
    from booking_request r
    left join booking_request_handling h on h.booking_key = r.booking_key
   group by r.booking_key, h.handled_at, h.handled_by_name, h.note`;

const KEYS = `(select jsonb_array_elements_text($1::jsonb))`;

export function createStaffBookingRequestsRepository(db: Queryable) {
  return {
    /** The chat service booked it: the staff queue shows it handled (unless staff handled it first). */
    async markBookedByChatService(bookingKey: string, at: Date, tx: Queryable = db): Promise<boolean> {
      const rows = await tx.query<{ booking_key: string }>(
        `insert into booking_request_handling (booking_key, handled_at, handled_by_ref, handled_by_name, note)
         values ($1, $2, 'chat-service', 'Chat service', null)
         on conflict (booking_key) do nothing returning booking_key`,
        [bookingKey, at.toISOString()],
      );
      return rows.length > 0;
    },

    /** Open requests oldest first (at most caps.open), then the latest handled or cancelled (at most caps.closed). */
    async queue(caps: { open: number; closed: number }): Promise<{ rows: QueueRow[]; openTotal: number }> {
      const open = await db.query<QueueRow>(
        `select * from (${REQUESTS}) q where live and handled_at is null order by received_at, booking_key limit ${String(caps.open)}`,
      );
      const closed = await db.query<QueueRow>(
        `select * from (${REQUESTS}) q where not live or handled_at is not null
          order by coalesce(handled_at, received_at) desc, booking_key limit ${String(caps.closed)}`,
      );
      const total = await db.query<{ count: number }>(
        `select count(*)::int as count from (${REQUESTS}) q where live and handled_at is null`,
      );
      return { rows: [...open, ...closed], openTotal: Number(total[0]?.count ?? 0) };
    },

    /** The exams and patient of these requests, one row per exam, in the order they were asked for. */
    async exams(bookingKeys: readonly string[]): Promise<ExamRow[]> {
      if (bookingKeys.length === 0) return [];
      // The keys go as JSON: the two drivers serialise JS arrays differently.
      return db.query<ExamRow>(
        `select r.booking_key, e.name as exam_name, m.name as modality_name, c.name as clinic_name, r.patient_notes,
                r.channel, r.preferred_times, r.screening_by_phone,
                ${PATIENT_CONTACT_COLUMNS}
           from booking_request r
           join exam e on e.id = r.exam_id
           join modality m on m.id = e.modality_id
           join patient p on p.id = r.patient_id
           left join clinic c on c.id = r.clinic_id
          where r.booking_key in ${KEYS}
          order by r.created_at, e.name`,
        [JSON.stringify(bookingKeys)],
      );
    },

    /** The requests' clean REFERRAL attachments (docs/rules/attachments.md), oldest first. */
    async referrals(bookingKeys: readonly string[]): Promise<ReferralFileRow[]> {
      if (bookingKeys.length === 0) return [];
      return db.query<ReferralFileRow>(
        `select a.owner_key as booking_key, a.id::text as id, a.file_name
           from attachment a join document_type d on d.id = a.document_type_id
          where a.owner_type = 'BOOKING_REQUEST' and a.owner_key in ${KEYS} and d.code = 'REFERRAL' and a.scan_status = 'CLEAN'
          order by a.created_at, a.file_name, a.id`,
        [JSON.stringify(bookingKeys)],
      );
    },

    /**
     * Marks a request handled, in one statement (two staff members at once: one wins). Answers
     * 'handled', 'already' (someone else did) or 'cancelled' (no exam left to arrange) with the
     * request's first row id (the audit's subject), or null when no request has the key.
     */
    async markHandled(
      bookingKey: string,
      handling: { at: Date; byRef: string; byName: string; note: string | null },
    ): Promise<{ outcome: 'handled' | 'already' | 'cancelled'; requestId: string } | null> {
      const rows = await db.query<{ live: boolean; inserted: boolean; request_id: string }>(
        `with target as (
           select bool_or(status <> 'CANCELED') as live, min(id::text) as request_id
             from booking_request where booking_key = $1 having count(*) > 0
         ),
         inserted as (
           insert into booking_request_handling (booking_key, handled_at, handled_by_ref, handled_by_name, note)
           select $1, $2, $3, $4, $5 from target where target.live
           on conflict (booking_key) do nothing
           returning booking_key
         )
         select target.live, target.request_id, exists (select 1 from inserted) as inserted from target`,
        [bookingKey, handling.at.toISOString(), handling.byRef, handling.byName, handling.note],
      );
      const row = rows[0];
      if (row === undefined) return null;
      const outcome = !row.live ? 'cancelled' : row.inserted ? 'handled' : 'already';
      return { outcome, requestId: row.request_id };
    },
  };
}

export type StaffBookingRequestsRepository = ReturnType<typeof createStaffBookingRequestsRepository>;
