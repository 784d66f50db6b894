import { zonedTimeToInstant } from '../../platform/time-zone';
import { addDays, localMidnight } from './zone-days';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * When a resource (a room or machine) is open, as instants: weekly hours in the clinic's own
 * zone, minus the resource's daily breaks, closed days and public holidays. Wall-clock times are
 * turned into instants per date, so 07:30 is 07:30 at the clinic on both sides of a daylight-saving
 * change. Pure: the caller loads the rows (availability/repository.ts).
 */

/** [start, end) in epoch milliseconds. */
export type Interval = readonly [number, number];

/** Minutes after local midnight, [opens, closes). */
export type LocalSpan = readonly [number, number];

export interface ResourceSchedule {
  resourceId: string;
  clinicId: string;
  modalityId: string;
  timeZone: string;
  /** ISO weekday (1 = Monday … 7 = Sunday) -> open spans, sorted. */
  weeklyHours: ReadonlyMap<number, readonly LocalSpan[]>;
  /** Daily breaks, sorted. */
  breaks: readonly LocalSpan[];
  /** Local dates the resource is closed (clinic closed days and the state's public holidays). */
  closedDates: ReadonlySet<string>;
}

/** "HH:MM" or "HH:MM:SS" -> minutes after midnight. */
export function minutesOfDay(time: string): number {
  const [hours, minutes] = time.split(':').map(Number);
  if (hours === undefined || minutes === undefined || Number.isNaN(hours) || Number.isNaN(minutes)) {
    throw new Error(`schedule: not a time of day: ${time}`);
  }
  return hours * 60 + minutes;
}

function hhmm(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/** ISO weekday of a calendar date (1 = Monday … 7 = Sunday). */
export function isoWeekday(isoDate: string): number {
  const [year, month, day] = isoDate.split('-').map(Number);
  const weekday = new Date(Date.UTC(year ?? 0, (month ?? 1) - 1, day ?? 1)).getUTCDay();
  return weekday === 0 ? 7 : weekday;
}

/** Local spans minus breaks (both sorted); pure minute arithmetic. */
export function subtractBreaks(spans: readonly LocalSpan[], breaks: readonly LocalSpan[]): LocalSpan[] {
  const result: LocalSpan[] = [];
  for (const [opens, closes] of spans) {
    let cursor = opens;
    for (const [breakStart, breakEnd] of breaks) {
      if (breakEnd <= cursor || breakStart >= closes) continue;
      if (breakStart > cursor) result.push([cursor, breakStart]);
      cursor = Math.max(cursor, breakEnd);
    }
    if (cursor < closes) result.push([cursor, closes]);
  }
  return result;
}

/** The resource's open intervals on a local date, as instants; empty on closed days. */
export function openIntervals(schedule: ResourceSchedule, isoDate: string): Interval[] {
  if (schedule.closedDates.has(isoDate)) return [];
  const spans = schedule.weeklyHours.get(isoWeekday(isoDate));
  if (spans === undefined || spans.length === 0) return [];
  const open = subtractBreaks(spans, schedule.breaks);
  // A day without a clock change is 24 hours from midnight: minutes are plain offsets.
  const midnight = localMidnight(isoDate, schedule.timeZone);
  if (localMidnight(addDays(isoDate, 1), schedule.timeZone) - midnight === DAY_MS) {
    return open.map(([opens, closes]) => [midnight + opens * 60_000, midnight + closes * 60_000]);
  }
  return open.map(([opens, closes]) => [
    zonedTimeToInstant(isoDate, hhmm(opens), schedule.timeZone).getTime(),
    // Closing at 24:00 means the next midnight.
    closes >= 24 * 60
      ? zonedTimeToInstant(isoDate, '23:59', schedule.timeZone).getTime() + 60_000
      : zonedTimeToInstant(isoDate, hhmm(closes), schedule.timeZone).getTime(),
  ]);
}
