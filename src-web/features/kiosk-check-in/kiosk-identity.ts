import { isValidCalendarDate } from '@contract/api/booking';

/**
 * The patient's details at the kiosk: last name and a date of birth typed as day, month and year
 * (three numeric fields an on-screen keyboard can fill; no date picker).
 */

export interface DateParts {
  day: string;
  month: string;
  year: string;
}

export type DateOfBirthProblem = 'required' | 'invalid' | 'future';

/** YYYY-MM-DD from the parts, or null when they do not make a real date from 1900 on. */
export function dateFromParts({ day, month, year }: DateParts): string | null {
  if (!/^\d{1,2}$/.test(day) || !/^\d{1,2}$/.test(month) || !/^\d{4}$/.test(year)) return null;
  const value = `${year}-${month.padStart(2, '0')}-${day.padStart(2, '0')}`;
  return isValidCalendarDate(value) ? value : null;
}

/** What is wrong with the date of birth, if anything; `today` is YYYY-MM-DD. */
export function dateOfBirthProblem(parts: DateParts, today: string): DateOfBirthProblem | null {
  if (parts.day.trim() === '' && parts.month.trim() === '' && parts.year.trim() === '') return 'required';
  const value = dateFromParts(parts);
  if (value === null) return 'invalid';
  return value > today ? 'future' : null;
}

/** Keeps the digits of what was typed, at most `length` of them. */
export function digitsOnly(value: string, length: number): string {
  return value.replace(/\D+/g, '').slice(0, length);
}
