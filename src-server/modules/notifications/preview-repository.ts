import { createAuditLogRepository, type AuditEntry } from '../../db/audit-log';
import { CLINIC_ADDRESS_COLUMNS, type ClinicAddressRow } from '../../db/clinic-columns';
import type { Queryable } from '../../db/connection';
import { FROM_REPORT_WITH_APPOINTMENT } from '../../db/report-joins';

/** SQL only (docs/server.md#module-shape): what the e-mail preview reads, and its audit row. Reads, never writes mail. */

export type PreviewBookingRow = ClinicAddressRow & {
  id: string;
  booking_key: string;
  status: string;
  exam_name: string;
  modality_name: string;
  preparation_notes: string;
  starts_at: string;
  ends_at: string;
  walk_in_exam: { name: string; prepTime?: number; minutesPrior?: number } | null;
  staff_booking: boolean;
  title: string;
  first_name: string;
  last_name: string;
  email: string | null;
};

export type PreviewRequestRow = {
  id: string;
  booking_key: string;
  exam_name: string;
  clinic_name: string | null;
  phone: string | null;
  title: string;
  first_name: string;
  last_name: string;
};

export type PreviewReportRow = {
  id: string;
  booking_key: string;
  accession_number: string;
  referrer_name: string;
  exam_name: string;
  starts_at: string;
  time_zone: string;
  first_name: string;
  last_name: string;
};

export type PreviewReference = { id: string; label: string; created_at: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function createPreviewRepository(db: Queryable) {
  const auditLog = createAuditLogRepository(db);
  return {
    /**
     * Every appointment (held ones aside) of the booking a reference names: an appointment's id
     * (a UUID) or a booking key. Empty when it names nothing.
     */
    async bookingRows(referenceId: string): Promise<PreviewBookingRow[]> {
      const byId = UUID.test(referenceId);
      return db.query<PreviewBookingRow>(
        `select a.id::text as id, a.booking_key, a.status, e.name as exam_name, m.name as modality_name, e.preparation_notes,
                to_char(lower(a.during) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as starts_at,
                to_char(upper(a.during) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as ends_at,
                a.walk_in_exam, a.staff_booking,
                ${CLINIC_ADDRESS_COLUMNS},
                p.title, p.first_name, p.last_name, p.email
           from appointment a
           join exam e on e.id = a.exam_id
           join modality m on m.id = e.modality_id
           join clinic c on c.id = a.clinic_id
           join patient p on p.id = a.patient_id
          where a.status <> 'HELD'
            and a.booking_key = ${byId ? `(select b.booking_key from appointment b where b.id = $1::uuid and b.status <> 'HELD')` : '$1'}
          order by lower(a.during), a.created_at`,
        [byId ? referenceId.toLowerCase() : referenceId],
      );
    },

    /** The booking requests under the booking key a reference names (a request's id, or the key). */
    async bookingRequestRows(referenceId: string): Promise<PreviewRequestRow[]> {
      const byId = UUID.test(referenceId);
      return db.query<PreviewRequestRow>(
        `select r.id::text as id, r.booking_key, e.name as exam_name, c.name as clinic_name, c.phone,
                p.title, p.first_name, p.last_name
           from booking_request r
           join exam e on e.id = r.exam_id
           join patient p on p.id = r.patient_id
           left join clinic c on c.id = r.clinic_id
          where r.booking_key = ${byId ? '(select b.booking_key from booking_request b where b.id = $1::uuid)' : '$1'}
          order by r.created_at, e.name`,
        [byId ? referenceId.toLowerCase() : referenceId],
      );
    },

    /** A stored report by its id, with what its mails name. */
    async report(referenceId: string): Promise<PreviewReportRow | null> {
      if (!UUID.test(referenceId)) return null;
      const rows = await db.query<PreviewReportRow>(
        `select r.id::text as id, a.booking_key, r.accession_number, r.referrer_name, e.name as exam_name,
                to_char(lower(a.during) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as starts_at,
                c.time_zone, p.first_name, p.last_name
           ${FROM_REPORT_WITH_APPOINTMENT}
          where r.id = $1::uuid`,
        [referenceId.toLowerCase()],
      );
      return rows[0] ?? null;
    },

    /**
     * The latest records staff may preview with, newest first: bookings (by their first
     * appointment's id), booking requests and reports; only the newest rows are read (limit × 10). Labels name the patient by first name and
     * last initial only; a booking key (it opens the booking) is never listed.
     */
    async recentReferences(
      limit: number,
    ): Promise<{ booking: PreviewReference[]; booking_request: PreviewReference[]; report: PreviewReference[] }> {
      const [booking, bookingRequest, report] = await Promise.all([
        db.query<PreviewReference>(
          `select distinct on (a.booking_key) a.id::text as id,
                  p.first_name || ' ' || left(p.last_name, 1) || '. · ' || e.name || ' · ' ||
                    to_char(lower(a.during) at time zone c.time_zone, 'YYYY-MM-DD HH24:MI') as label,
                  to_char(a.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created_at
             from (select * from appointment where status <> 'HELD' order by created_at desc limit ${limit * 10}) a
             join exam e on e.id = a.exam_id
             join clinic c on c.id = a.clinic_id
             join patient p on p.id = a.patient_id
            order by a.booking_key, lower(a.during), a.created_at`,
        ),
        db.query<PreviewReference>(
          `select distinct on (r.booking_key) r.id::text as id,
                  p.first_name || ' ' || left(p.last_name, 1) || '. · ' || e.name as label,
                  to_char(r.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created_at
             from (select * from booking_request order by created_at desc limit ${limit * 10}) r
             join exam e on e.id = r.exam_id
             join patient p on p.id = r.patient_id
            order by r.booking_key, r.created_at`,
        ),
        db.query<PreviewReference>(
          `select r.id::text as id,
                  p.first_name || ' ' || left(p.last_name, 1) || '. · ' || e.name || ' · ' || r.accession_number as label,
                  to_char(r.received_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created_at
             from result_report r
             join appointment a on a.id = r.appointment_id
             join exam e on e.id = a.exam_id
             join patient p on p.id = a.patient_id
            order by r.received_at desc, r.id
            limit ${limit}`,
        ),
      ]);
      const newest = (rows: PreviewReference[]) =>
        [...rows].sort((a, b) => b.created_at.localeCompare(a.created_at) || a.id.localeCompare(b.id)).slice(0, limit);
      return { booking: newest(booking), booking_request: newest(bookingRequest), report: newest(report) };
    },

    /** How many test mails this staff member sent since `since` (the send-a-test limit). */
    async testsSentSince(actor: string, since: Date): Promise<{ count: number; oldest: string | null }> {
      const rows = await db.query<{ count: number; oldest: string | null }>(
        `select count(*)::int as count, to_char(min(occurred_at) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as oldest
           from audit_log where action = 'email_test_sent' and actor = $1 and occurred_at > $2::timestamptz`,
        [actor, since.toISOString()],
      );
      return rows[0] ?? { count: 0, oldest: null };
    },

    audit: (entry: AuditEntry): Promise<void> => auditLog.record(entry),
  };
}

export type PreviewRepository = ReturnType<typeof createPreviewRepository>;
