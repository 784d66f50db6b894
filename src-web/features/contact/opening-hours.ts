import type { OpeningHours } from '@contract/api/config';
import type { WeekStart } from '../../i18n/locale';

export interface OpeningDay {
  /** ISO weekday, 1 = Monday … 7 = Sunday. */
  weekday: number;
  /** Opening intervals of that day in order; empty when closed. */
  intervals: { opens: string; closes: string }[];
}

/** The seven days from the locale's first day of the week, each with its opening intervals. */
export function openingDays(hours: OpeningHours[], weekStart: WeekStart): OpeningDay[] {
  const first = weekStart === 0 ? 7 : 1;
  return Array.from({ length: 7 }, (_, offset) => {
    const weekday = ((first - 1 + offset) % 7) + 1;
    const intervals = hours
      .filter((entry) => entry.weekday === weekday)
      .map(({ opens, closes }) => ({ opens, closes }))
      .sort((a, b) => a.opens.localeCompare(b.opens));
    return { weekday, intervals };
  });
}

// 2024-01-01 was a Monday; formatting in UTC keeps the day and time exactly as configured.
const MONDAY = Date.UTC(2024, 0, 1);
const DAY_MS = 86_400_000;

/** The weekday's name in the locale (Intl data, not a catalogue string). */
export function weekdayName(weekday: number, locale: string): string {
  return new Intl.DateTimeFormat(locale, { weekday: 'long', timeZone: 'UTC' }).format(MONDAY + (weekday - 1) * DAY_MS);
}

/** A HH:MM time in the locale's style (7:30 am in en-AU, 07:30 in mk). */
export function formatTime(time: string, locale: string): string {
  const [hours = 0, minutes = 0] = time.split(':').map(Number);
  return new Intl.DateTimeFormat(locale, { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' }).format(
    MONDAY + hours * 3_600_000 + minutes * 60_000,
  );
}
