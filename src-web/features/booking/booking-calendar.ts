import { dateTimeFormat as formatter } from '../../platform/dates';

/**
 * Calendar arithmetic for the booking flow on ISO dates ('YYYY-MM-DD') and months ('YYYY-MM').
 * Dates are calendar days, not instants, so they are computed in UTC where no zone can shift them.
 */

/** 0 = Sunday, 1 = Monday. */
export type WeekStartDay = 0 | 1;

function toUtc(isoDate: string): Date {
  const [year = 1970, month = 1, day = 1] = isoDate.split('-').map(Number);
  return new Date(Date.UTC(year, month - 1, day));
}

function fromUtc(date: Date): string {
  return date.toISOString().slice(0, 10);
}

export function addDays(isoDate: string, days: number): string {
  const date = toUtc(isoDate);
  date.setUTCDate(date.getUTCDate() + days);
  return fromUtc(date);
}

export function daysBetween(from: string, to: string): number {
  return Math.round((toUtc(to).getTime() - toUtc(from).getTime()) / 86_400_000);
}

export function dayOfWeek(isoDate: string): number {
  return toUtc(isoDate).getUTCDay();
}

/**
 * The first day of the week view that contains `today`: today itself when the provider starts
 * weeks today (weekStartsTodayEnabled), else the locale's week start on or before today.
 */
export function firstDayOfWeek(today: string, startsToday: boolean, weekStart: WeekStartDay): string {
  if (startsToday) return today;
  const back = (dayOfWeek(today) - weekStart + 7) % 7;
  return addDays(today, -back);
}

export function monthOf(isoDate: string): string {
  return isoDate.slice(0, 7);
}

export function addMonths(month: string, months: number): string {
  const [year = 1970, monthNumber = 1] = month.split('-').map(Number);
  const date = new Date(Date.UTC(year, monthNumber - 1 + months, 1));
  return fromUtc(date).slice(0, 7);
}

/**
 * The month as weeks of 7 cells for a calendar grid, each a date or null (padding before the
 * first and after the last day), starting on the locale's week start.
 */
export function monthGrid(month: string, weekStart: WeekStartDay): (string | null)[][] {
  const first = `${month}-01`;
  const nextMonth = `${addMonths(month, 1)}-01`;
  const length = daysBetween(first, nextMonth);
  const lead = (dayOfWeek(first) - weekStart + 7) % 7;
  const cells: (string | null)[] = [...Array.from({ length: lead }, () => null), ...Array.from({ length }, (_, i) => addDays(first, i))];
  while (cells.length % 7 !== 0) cells.push(null);
  const weeks: (string | null)[][] = [];
  for (let i = 0; i < cells.length; i += 7) weeks.push(cells.slice(i, i + 7));
  return weeks;
}

/** A calendar date formatted for people (no zone shift: the date is formatted as UTC). */
export function formatDate(isoDate: string, locale: string, options: Intl.DateTimeFormatOptions): string {
  return formatter(locale, { ...options, timeZone: 'UTC' }).format(toUtc(isoDate));
}

/** An instant formatted in the clinic's time zone. */
export function formatInstant(instant: string, locale: string, timeZone: string, options: Intl.DateTimeFormatOptions): string {
  return formatter(locale, { ...options, timeZone }).format(new Date(instant));
}

/**
 * An appointment's start spelled out in full (weekday, date and time) in the clinic's zone; with the
 * zone named where the patient may be somewhere else (self-service pages, rescheduling).
 */
export function formatStartTime(instant: string, locale: string, timeZone: string, withZoneName: boolean): string {
  return formatInstant(instant, locale, timeZone, {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    ...(withZoneName ? { timeZoneName: 'short' as const } : {}),
  });
}

/** A day heading such as "Tue 25 Nov". */
export function dayLabel(date: string, locale: string): string {
  return formatDate(date, locale, { weekday: 'short', day: 'numeric', month: 'short' });
}
