import { addDays as addCalendarDays, localDate, zonedTimeToInstant } from '../../platform/time-zone';

/**
 * Calendar days in a zone, memoised: Intl calls cost tens of microseconds, and one week for 50
 * clinics needs hundreds of day boundaries. Shared by the schedules and the availability index.
 */

const nextDays = new Map<string, string>();
const previousDays = new Map<string, string>();

/** Calendar arithmetic, memoised for the ±1 steps the day loops take thousands of times. */
export function addDays(isoDate: string, days: number): string {
  if (days !== 1 && days !== -1) return addCalendarDays(isoDate, days);
  const cache = days === 1 ? nextDays : previousDays;
  let result = cache.get(isoDate);
  if (result === undefined) {
    result = addCalendarDays(isoDate, days);
    if (cache.size > 100_000) cache.clear();
    cache.set(isoDate, result);
  }
  return result;
}

const midnights = new Map<string, number>();

/**
 * Local midnight of a date in a zone, as an instant (memoised: Intl calls cost tens of
 * microseconds, and a week for 50 clinics asks for hundreds of them).
 */
export function localMidnight(isoDate: string, timeZone: string): number {
  const key = `${timeZone}|${isoDate}`;
  let instant = midnights.get(key);
  if (instant === undefined) {
    instant = zonedTimeToInstant(isoDate, '00:00', timeZone).getTime();
    if (midnights.size > 100_000) midnights.clear();
    midnights.set(key, instant);
  }
  return instant;
}

/** The local date of an instant, via the memoised midnights of the days around it. */
export function localDateOf(instant: number, timeZone: string, near: string): string {
  for (const candidate of [near, addDays(near, -1), addDays(near, 1)]) {
    if (localMidnight(candidate, timeZone) <= instant && instant < localMidnight(addDays(candidate, 1), timeZone)) return candidate;
  }
  return localDate(new Date(instant), timeZone);
}
