import { createAuditLogRepository, type AuditEntry } from '../../db/audit-log';
import type { Queryable } from '../../db/connection';

/** SQL only (docs/server.md#module-shape): what the e-mail preview reads, and its audit row. Reads, never writes mail. */

export type PreviewBookingRow = {
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
  clinic_name: string;
  street: string;
  suburb: string;
  state: string;
  postcode: string;
  phone: string;
  time_zone: string;
  title: string;
  first_name: string;
  last_name: string;
  email: string | null;
};

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
                c.name as clinic_name, c.street, c.suburb, c.state, c.postcode, c.phone, c.time_zone,
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

    /** The provider's name as the mails sign with it (null when the provider row has none). */
    async providerName(): Promise<string | null> {
      const rows = await db.query<{ name: string | null }>(`select radiology_config->>'name' as name from provider where id = 1`);
      return rows[0]?.name ?? null;
    },

    audit: (entry: AuditEntry): Promise<void> => auditLog.record(entry),
  };
}

export type PreviewRepository = ReturnType<typeof createPreviewRepository>;
