import { createAuditLogRepository } from '../../db/audit-log';
import type { Queryable } from '../../db/connection';
import { PATIENT_CONTACT_COLUMNS, type PatientContactRow } from '../../db/patient-columns';
import { createBookingRecords } from '../booking/public';

/** SQL only (docs/server.md#module-shape): a booking request's exams, patient and referral files. */

export type RequestRow = PatientContactRow & {
  id: string;
  status: 'BOOKED' | 'CANCELED';
  patient_notes: string;
  exam_slug: string;
  exam_name: string;
  modality_name: string;
  clinic_name: string | null;
  channel: 'web' | 'chat';
  preferred_times: string[];
  screening_by_phone: boolean;
  type: 'PATIENT' | 'CHAT';
  booked_by_chat_service: boolean;
};

export type ReferralRow = {
  id: string;
  file_name: string;
  content_type: string;
};

const REQUEST_SELECT = `
  select r.id::text as id, r.status, r.patient_notes, e.slug as exam_slug, e.name as exam_name, m.name as modality_name,
         c.name as clinic_name, ${PATIENT_CONTACT_COLUMNS}, r.channel, r.preferred_times, r.screening_by_phone, r.type,
         exists (select 1 from booking_request_handling h
                  where h.booking_key = r.booking_key and h.handled_by_ref = 'chat-service') as booked_by_chat_service
    from booking_request r
    join exam e on e.id = r.exam_id
    join modality m on m.id = e.modality_id
    join patient p on p.id = r.patient_id
    left join clinic c on c.id = r.clinic_id
   where r.booking_key = $1`;

export function createBookingRequestsRepository(db: Queryable) {
  const auditLog = createAuditLogRepository(db);
  // The request rows are booking's (it inserts them with the booking): their changes go through it.
  const records = createBookingRecords(db);
  return {
    async rows(bookingKey: string, tx: Queryable = db): Promise<RequestRow[]> {
      return tx.query<RequestRow>(`${REQUEST_SELECT} order by r.created_at, e.name`, [bookingKey]);
    },

    async lockRows(bookingKey: string, tx: Queryable = db): Promise<RequestRow[]> {
      return tx.query<RequestRow>(`${REQUEST_SELECT} order by r.created_at, e.name for update of r`, [bookingKey]);
    },

    setStatus: records.setRequestStatus,
    setType: records.setRequestType,

    /** Whether the provider has a chat service configured. */
    async chatServiceConfigured(tx: Queryable = db): Promise<boolean> {
      const rows = await tx.query<{ on: boolean }>(
        `select coalesce(jsonb_typeof(integration_config -> 'chatService') = 'object', false) as on from provider where id = 1`,
      );
      return rows[0]?.on === true;
    },

    /** The request's referrals: its REFERRAL attachments (docs/rules/attachments.md), oldest first. */
    async referrals(bookingKey: string, tx: Queryable = db): Promise<ReferralRow[]> {
      return tx.query<ReferralRow>(
        `select a.id::text as id, a.file_name, a.content_type from attachment a join document_type d on d.id = a.document_type_id
          where a.owner_type = 'BOOKING_REQUEST' and a.owner_key = $1 and d.code = 'REFERRAL' and a.scan_status = 'CLEAN'
          order by a.created_at, a.file_name, a.id`,
        [bookingKey],
      );
    },

    async bookingInfoHtml(tx: Queryable = db): Promise<string | null> {
      const rows = await tx.query<{ html: string | null }>(
        'select booking_request_info_html as html from self_service_settings where id = 1',
      );
      return rows[0]?.html ?? null;
    },

    /** Security-relevant event; never personal data in details (docs/rules/security.md#audit-log). */
    async audit(
      entry: { actor: string; action: string; subjectId: string; details: Record<string, unknown>; now: Date },
      tx: Queryable = db,
    ): Promise<void> {
      await auditLog.record({ ...entry, subjectType: 'booking_request' }, tx);
    },
  };
}

export type BookingRequestsRepository = ReturnType<typeof createBookingRequestsRepository>;
