import type { Queryable } from '../../db/connection';

/** A clinic as the list names it. */
export type ClinicRow = {
  id: string;
  slug: string;
  name: string;
  time_zone: string;
};

/** One appointment of the day with the booking's last answer that matches its status. */
export type DayAppointmentRow = {
  id: string;
  starts_at: Date | string;
  status: string;
  title: string;
  first_name: string;
  last_name: string;
  contact_number: string | null;
  exam_name: string;
  /** The latest CONFIRM (for a confirmed one) or CANCEL (for a cancelled one) of the booking, or null. */
  change_via: string | null;
  change_actor: string | null;
  changed_at: Date | string | null;
  /** The channels a reminder was sent by (outcome sent), any of the booking's starts. */
  reminder_channels: string[] | null;
};

/**
 * Statuses the desk sees: those that hold their time, and the cancelled ones (their time is free
 * again). Holds, moved, superseded, expired and deleted rows are no appointment of the day.
 */
export const LISTED_STATUSES = ['BOOKED', 'PENDING', 'CONFIRMED', 'REQUEST_RESCHEDULE', 'ON_HOLD', 'CHECKED_IN', 'CANCELED'] as const;

/** Reads only: appointment is booking's, appointment_change the appointments module's, appointment_reminder the reminders'. */
export function createStaffAppointmentsRepository(db: Queryable) {
  return {
    async clinics(): Promise<ClinicRow[]> {
      return db.query<ClinicRow>(`select id::text as id, slug, name, time_zone from clinic order by position, name`);
    },

    /**
     * The clinic's appointments starting in [from, to), by start then patient name. The answer is
     * the booking's latest change that led to the row's status (a confirmed row its CONFIRM, a
     * cancelled one its CANCEL), so an earlier confirmation never explains a later cancellation.
     */
    async day(clinicId: string, from: Date, to: Date): Promise<DayAppointmentRow[]> {
      return db.query<DayAppointmentRow>(
        `select a.id::text as id, lower(a.during) as starts_at, a.status,
                p.title, p.first_name, p.last_name, p.contact_number, e.name as exam_name,
                change.via as change_via, change.actor as change_actor, change.occurred_at as changed_at,
                (select array_agg(distinct r.channel order by r.channel)
                   from appointment_reminder r
                  where r.booking_key = a.booking_key and r.outcome = 'sent') as reminder_channels
           from appointment a
           join patient p on p.id = a.patient_id
           join exam e on e.id = a.exam_id
           left join lateral (
             select c.details->>'via' as via, c.actor, c.occurred_at
               from appointment_change c
              where c.booking_key = a.booking_key
                and c.action = case when a.status = 'CANCELED' then 'CANCEL' else 'CONFIRM' end
                and (a.status = 'CANCELED' or a.confirmed_at is not null)
              order by c.occurred_at desc, c.id desc
              limit 1
           ) change on true
          where a.clinic_id = $1::uuid
            and a.during && tstzrange($2::timestamptz, $3::timestamptz, '[)')
            and lower(a.during) >= $2::timestamptz and lower(a.during) < $3::timestamptz
            and a.status = any($4::text[])
          order by lower(a.during), p.last_name, p.first_name, a.id`,
        [clinicId, from.toISOString(), to.toISOString(), [...LISTED_STATUSES]],
      );
    },
  };
}

export type StaffAppointmentsRepository = ReturnType<typeof createStaffAppointmentsRepository>;
