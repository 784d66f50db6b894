import type { DayPlan } from '@contract/api/day-plan';
import type { Queryable } from '../../db/connection';
import { notFound } from '../../platform/errors';
import { stillMissing } from '../check-in/public';
import { buildDayPlan, type DayPlanClinicSource, type DayPlanExam } from './day-plan';

/**
 * What the day plan is built from (docs/rules/day-plan.md): the booking's appointments still to
 * come with their exams' timed preparation, the clinic, and what the booking still lacks by the
 * check-in checklist's rule.
 */

/** The appointments a plan is for: live ones, and one already checked in (the plan stays on the day). */
const PLANNED_STATUSES = ['BOOKED', 'PENDING', 'CONFIRMED', 'REQUEST_RESCHEDULE', 'CHECKED_IN'];
const PLANNED = `{${PLANNED_STATUSES.join(',')}}`;

interface PlannedExamRow extends Record<string, unknown> {
  exam_name: string;
  starts_ms: number;
  fasting_hours: number | null;
  drink_amount: string | null;
  drink_from_minutes: number | null;
  drink_until_minutes: number | null;
  medication_stop: string | null;
  medication_stop_hours: number | null;
  arrival_minutes: number | null;
}

interface ClinicRow extends Record<string, unknown> {
  name: string;
  street: string;
  suburb: string;
  state: string;
  postcode: string;
  time_zone: string;
  parking: string;
  arrival_minutes: number;
}

async function plannedExams(db: Queryable, bookingKey: string, now: Date): Promise<DayPlanExam[]> {
  const rows = await db.query<PlannedExamRow>(
    `select e.name as exam_name, extract(epoch from lower(a.during))::float8 * 1000 as starts_ms, e.fasting_hours,
            e.drink_amount, e.drink_from_minutes, e.drink_until_minutes, e.medication_stop, e.medication_stop_hours,
            e.arrival_minutes
       from appointment a join exam e on e.id = a.exam_id
      where a.booking_key = $1 and a.status = any($2::text[]) and upper(a.during) > $3::timestamptz
      order by lower(a.during), e.name`,
    [bookingKey, PLANNED, now.toISOString()],
  );
  return rows.map((row) => ({
    examName: row.exam_name,
    startsAt: new Date(row.starts_ms),
    fastingHours: row.fasting_hours,
    // The migration's checks hold all three drink columns, and both stop columns, set together.
    drink:
      row.drink_amount === null
        ? null
        : { amount: row.drink_amount, fromMinutes: Number(row.drink_from_minutes), untilMinutes: Number(row.drink_until_minutes) },
    medicationStop: row.medication_stop === null ? null : { medicine: row.medication_stop, hours: Number(row.medication_stop_hours) },
    arrivalMinutes: row.arrival_minutes,
  }));
}

/** The clinic of the booking's coming appointments, or of its latest one when none is to come. */
async function bookingClinic(db: Queryable, bookingKey: string): Promise<DayPlanClinicSource> {
  const rows = await db.query<ClinicRow>(
    `select c.name, c.street, c.suburb, c.state, c.postcode, c.time_zone, c.parking, c.arrival_minutes
       from appointment a join clinic c on c.id = a.clinic_id
      where a.booking_key = $1 and a.status <> 'HELD'
      order by (a.status = any($2::text[])) desc, lower(a.during) desc
      limit 1`,
    [bookingKey, PLANNED],
  );
  const row = rows[0];
  // The session guard already matched this key; no rows means the booking was removed since.
  if (row === undefined) throw notFound('We could not find this appointment.');
  const { name, street, suburb, state, postcode, parking } = row;
  return { name, street, suburb, state, postcode, parking, timeZone: row.time_zone, arrivalMinutes: row.arrival_minutes };
}

/** The booking's day plan at `now` (GET …/day-plan; the reminders may word it with dayPlanLines). */
export async function dayPlanOf(db: Queryable, bookingKey: string, now: Date): Promise<DayPlan> {
  const clinic = await bookingClinic(db, bookingKey);
  const exams = await plannedExams(db, bookingKey, now);
  const missing = await stillMissing(db, bookingKey, now);
  return buildDayPlan({ exams, clinic, missing }, now);
}
