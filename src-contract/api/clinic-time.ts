import type { DayPlan } from './day-plan';

/**
 * A clinic's clock time as a patient reads it, without zod, so the web's pages and the server's
 * mails word times alike at no bundle cost: the time in the clinic's zone, with the weekday when
 * it is not the day of `scanDay` (fasting that starts the evening before, a 48-hour medicine stop).
 */

/** The calendar day of an instant in a time zone, as YYYY-MM-DD. */
function dayIn(instant: string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(instant));
}

export function clinicClockTime(instant: string, scanDay: string, timeZone: string, locale: string): string {
  const sameDay = dayIn(instant, timeZone) === dayIn(scanDay, timeZone);
  return new Intl.DateTimeFormat(locale, {
    timeZone,
    hour: 'numeric',
    minute: '2-digit',
    ...(sameDay ? {} : { weekday: 'long' }),
  }).format(new Date(instant));
}

/** A day plan's first exam start: the day its times are read against (null for an empty plan). */
export function planExamDay(plan: Pick<DayPlan, 'steps'>): string | null {
  return plan.steps.find((step) => step.kind === 'EXAM')?.at ?? null;
}
