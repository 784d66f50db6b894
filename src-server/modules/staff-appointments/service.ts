import type { AppointmentStatus } from '@contract/api/appointment-statuses';
import {
  REMINDER_CHANNELS,
  STAFF_APPOINTMENTS_MESSAGES,
  type ReminderAnswer,
  type ReminderChannel,
  type StaffAppointment,
  type StaffAppointmentList,
  type StaffAppointmentsQuery,
} from '@contract/api/staff-appointments';
import { createAuditLogRepository } from '../../db/audit-log';
import type { Queryable } from '../../db/connection';
import type { Clock } from '../../platform/clock';
import { notFound } from '../../platform/errors';
import { addDays, localDate, zonedTimeToInstant, zonedWallClock } from '../../platform/time-zone';
import { createStaffAppointmentsRepository, type ClinicRow, type DayAppointmentRow } from './repository';

/**
 * The front desk's confirmation list (docs/rules/staff-appointments.md): a clinic's day as the
 * clinic's calendar has it (local midnight to midnight), each appointment with the reminder's
 * answer. The audit row names who read which clinic's day and how many rows, never whose.
 */

const iso = (value: Date | string): string => new Date(value).toISOString();
const isChannel = (value: string): value is ReminderChannel => (REMINDER_CHANNELS as readonly string[]).includes(value);

/** The change log's words for how it happened (reminder-reply.ts writes `via`; provider-cancel.ts the staff actor). */
function answerOf(row: DayAppointmentRow): ReminderAnswer {
  if (row.changed_at === null) return 'none';
  const cancelled = row.status === 'CANCELED';
  if (row.change_via === 'reminder-email') return cancelled ? 'cancelledByEmail' : 'confirmedByEmail';
  if (row.change_via === 'reminder-sms') return cancelled ? 'cancelledBySms' : 'confirmedBySms';
  if (cancelled) return row.change_actor === 'staff' ? 'cancelledByClinic' : 'cancelledOnPage';
  return 'confirmedOnPage';
}

function toStaffAppointment(row: DayAppointmentRow, timeZone: string): StaffAppointment {
  const startsAt = new Date(row.starts_at);
  const wall = zonedWallClock(startsAt, timeZone);
  return {
    id: row.id,
    startsAt: startsAt.toISOString(),
    localTime: `${String(wall.hour).padStart(2, '0')}:${String(wall.minute).padStart(2, '0')}`,
    title: row.title,
    firstName: row.first_name,
    lastName: row.last_name,
    phone: row.contact_number === null || row.contact_number.trim() === '' ? null : row.contact_number,
    examName: row.exam_name,
    status: row.status as AppointmentStatus,
    live: row.status !== 'CANCELED',
    answer: answerOf(row),
    answeredAt: row.changed_at === null ? null : iso(row.changed_at),
    reminders: (row.reminder_channels ?? []).filter(isChannel),
  };
}

const clinicOf = (row: ClinicRow) => ({ slug: row.slug, name: row.name, timeZone: row.time_zone });

export function createStaffAppointments(deps: { db: Queryable; clock: Clock }) {
  const { db, clock } = deps;
  const repository = createStaffAppointmentsRepository(db);
  const audit = createAuditLogRepository(db);

  return {
    /** The chosen clinic's day (404 for an unknown clinic); by default the first clinic, tomorrow where it is. */
    async list(staffRef: string, query: StaffAppointmentsQuery): Promise<StaffAppointmentList> {
      const clinics = await repository.clinics();
      const clinic = query.clinic === undefined ? clinics[0] : clinics.find((candidate) => candidate.slug === query.clinic);
      if (clinic === undefined) throw notFound(STAFF_APPOINTMENTS_MESSAGES.unknownClinic);
      const now = clock.now();
      const date = query.date ?? addDays(localDate(now, clinic.time_zone), 1);
      const from = zonedTimeToInstant(date, '00:00', clinic.time_zone);
      const to = zonedTimeToInstant(addDays(date, 1), '00:00', clinic.time_zone);
      const rows = await repository.day(clinic.id, from, to);
      const items = rows.map((row) => toStaffAppointment(row, clinic.time_zone));
      await audit.record({
        actor: staffRef,
        action: 'staff_appointments_listed',
        subjectType: 'clinic',
        subjectId: clinic.slug,
        details: { date, listed: items.length, noAnswer: items.filter((item) => item.live && item.answer === 'none').length },
        now,
      });
      return { clinic: clinicOf(clinic), date, clinics: clinics.map(clinicOf), items };
    },

    /** Who sent which appointment's reminder by hand, and by which channels (never to whom). */
    async recordReminderSent(staffRef: string, appointmentId: string, sent: { email: boolean; sms: boolean }): Promise<void> {
      await audit.record({
        actor: staffRef,
        action: 'appointment.reminder_sent_by_staff',
        subjectType: 'appointment',
        subjectId: appointmentId,
        details: sent,
        now: clock.now(),
      });
    },
  };
}

export type StaffAppointments = ReturnType<typeof createStaffAppointments>;
