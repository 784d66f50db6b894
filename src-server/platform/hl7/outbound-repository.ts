import { randomBytes } from 'node:crypto';
import type { Queryable } from '../../db/connection';
import { isoTimestamp } from '../../db/sql';
import { PATIENT_CONTACT_COLUMNS, type PatientContactRow } from '../../db/patient-columns';
import { settleClaimedRow, type ClaimOutcome, type OutboxStatus } from '../outbox/outbox-repository';
import type { AppointmentFacts } from './scheduling-messages';

/**
 * SQL for hl7_outbound (0040_hl7_outbound.sql): messages queued in the transaction of the change
 * they report, claimed with a lease by one worker, ending sent, or failed and kept. A message is
 * claimed only when no earlier message of its appointment is still unsent, so the RIS hears of a
 * booking before its cancellation whatever the retries.
 */

export type Hl7Event = 'SIU_S12' | 'SIU_S14' | 'SIU_S15' | 'ADT_A04';

export interface Hl7Outbound {
  id: number;
  appointmentId: string;
  event: Hl7Event;
  /** The event again, as the outbox loop names an item's kind. */
  kind: Hl7Event;
  controlId: string;
  message: string;
  status: OutboxStatus;
  attempts: number;
  lastError: string | null;
}

type Row = Hl7Outbound & Record<string, unknown>;

const COLUMNS = `id::int as id, appointment_id::text as "appointmentId", event, event as kind, control_id as "controlId", message, status, attempts,
  last_error as "lastError", ${isoTimestamp('next_attempt_at', '"nextAttemptAt"')}`;

/** A new MSH-10: 20 characters of A-Z and 0-9 (about 100 bits), unique by the table's constraint. */
export function newControlId(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  return [...randomBytes(20)].map((byte) => alphabet[byte % 36]).join('');
}

type FactsRow = PatientContactRow & {
  appointment_id: string;
  status: string;
  start: Date;
  end: Date;
  exam_code: string;
  exam_name: string;
  clinic_slug: string;
  clinic_name: string;
  time_zone: string;
  patient_id: string;
  provider_number: string | null;
  referrer_first_name: string | null;
  referrer_last_name: string | null;
  medicare_number: string | null;
  medicare_reference: string | null;
  gender: 'FEMALE' | 'MALE' | 'OTHER' | null;
};

function factsOf(row: FactsRow): AppointmentFacts {
  return {
    appointmentId: row.appointment_id,
    status: row.status,
    start: new Date(row.start),
    end: new Date(row.end),
    exam: { code: row.exam_code, name: row.exam_name },
    clinic: { slug: row.clinic_slug, name: row.clinic_name, timeZone: row.time_zone },
    patient: {
      id: row.patient_id,
      title: row.title,
      firstName: row.first_name,
      lastName: row.last_name,
      dateOfBirth: row.date_of_birth,
      email: row.email,
      phone: row.contact_number,
      postcode: row.postcode,
      medicare:
        row.medicare_number === null || row.medicare_reference === null
          ? null
          : { number: row.medicare_number, reference: row.medicare_reference },
      gender: row.gender,
    },
    referrer:
      row.provider_number === null
        ? null
        : { providerNumber: row.provider_number, firstName: row.referrer_first_name ?? '', lastName: row.referrer_last_name ?? '' },
  };
}

export function createHl7OutboundRepository(db: Queryable) {
  return {
    /**
     * What the messages of these appointments say, as the rows are in this transaction. Once the
     * patient has checked in, the check-in's referring doctor, Medicare number and gender count.
     */
    async facts(appointmentIds: readonly string[], tx: Queryable = db): Promise<AppointmentFacts[]> {
      const rows = await tx.query<FactsRow>(
        `select a.id::text as appointment_id, a.status, lower(a.during) as start, upper(a.during) as "end", e.exam_code, e.name as exam_name,
                c.slug as clinic_slug, c.name as clinic_name, c.time_zone, p.id::text as patient_id, ${PATIENT_CONTACT_COLUMNS}, d.provider_number,
                d.first_name as referrer_first_name, d.last_name as referrer_last_name,
                ci.medicare_number, ci.medicare_reference, ci.gender
           from appointment a join exam e on e.id = a.exam_id join clinic c on c.id = a.clinic_id join patient p on p.id = a.patient_id
           left join check_in ci on ci.appointment_id = a.id
           left join referring_doctor d on d.id = coalesce(ci.referring_doctor_id, a.referring_doctor_id)
          where a.id = any($1::uuid[]) order by lower(a.during), a.id`,
        [appointmentIds],
      );
      return rows.map(factsOf);
    },

    async enqueue(entry: { appointmentId: string; event: Hl7Event; controlId: string; message: string }, now: Date, tx: Queryable = db) {
      await tx.query(
        `insert into hl7_outbound (appointment_id, event, control_id, message, next_attempt_at, created_at) values ($1::uuid, $2, $3, $4, $5, $5)`,
        [entry.appointmentId, entry.event, entry.controlId, entry.message, now.toISOString()],
      );
    },

    /** Due messages whose appointment has no earlier unsent one, claimed until `leaseUntil`. */
    async claimDue(now: Date, leaseUntil: Date, limit: number, tx: Queryable = db): Promise<Hl7Outbound[]> {
      const rows = await tx.query<Row>(
        `update hl7_outbound set status = 'sending', attempts = attempts + 1, next_attempt_at = $2
          where id in (
            select h.id from hl7_outbound h
             where h.status in ('queued', 'sending') and h.next_attempt_at <= $1
               and not exists (select 1 from hl7_outbound e
                                where e.appointment_id = h.appointment_id and e.id < h.id and e.status in ('queued', 'sending'))
             order by h.next_attempt_at, h.id
             limit $3
             for update skip locked)
          returning ${COLUMNS}`,
        [now.toISOString(), leaseUntil.toISOString(), limit],
      );
      return rows.sort((a, b) => a.id - b.id);
    },

    settle(claim: { id: number; attempts: number }, outcome: ClaimOutcome, tx: Queryable = db): Promise<boolean> {
      return settleClaimedRow(tx, 'hl7_outbound', claim, outcome);
    },

    async countPending(tx: Queryable = db): Promise<number> {
      const rows = await tx.query<{ count: number }>(
        `select count(*)::int as count from hl7_outbound where status in ('queued', 'sending')`,
      );
      return rows[0]?.count ?? 0;
    },

    /** The most recent messages, newest first (the development outbox page). */
    async listRecent(limit: number, tx: Queryable = db): Promise<Array<Hl7Outbound & { createdAt: string }>> {
      return tx.query<Row & { createdAt: string }>(
        `select ${COLUMNS}, ${isoTimestamp('created_at', '"createdAt"')} from hl7_outbound order by id desc limit $1`,
        [limit],
      );
    },

    async forAppointment(appointmentId: string, tx: Queryable = db): Promise<Hl7Outbound[]> {
      return tx.query<Row>(`select ${COLUMNS} from hl7_outbound where appointment_id = $1::uuid order by id`, [appointmentId]);
    },
  };
}

export type Hl7OutboundRepository = ReturnType<typeof createHl7OutboundRepository>;
