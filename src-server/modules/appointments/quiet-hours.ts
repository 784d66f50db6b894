import { addDays, localDate, zonedTimeToInstant, zonedWallClock } from '../../platform/time-zone';
import type { ReminderSettings } from './reminders-repository';

/** Whether the clinic's local time of `now` falls in the quiet hours (which may span midnight). */
export function inQuietHours(now: Date, timeZone: string, settings: Pick<ReminderSettings, 'quietStart' | 'quietEnd'>): boolean {
  const wall = zonedWallClock(now, timeZone);
  const time = `${String(wall.hour).padStart(2, '0')}:${String(wall.minute).padStart(2, '0')}`;
  const { quietStart: start, quietEnd: end } = settings;
  if (start === end) return false;
  return start < end ? time >= start && time < end : time >= start || time < end;
}

/** When the quiet hours `now` falls in end (the next time their end strikes at the clinic); null outside them. */
export function quietHoursEnd(now: Date, timeZone: string, settings: Pick<ReminderSettings, 'quietStart' | 'quietEnd'>): Date | null {
  if (!inQuietHours(now, timeZone, settings)) return null;
  const today = localDate(now, timeZone);
  const endToday = zonedTimeToInstant(today, settings.quietEnd, timeZone);
  return endToday > now ? endToday : zonedTimeToInstant(addDays(today, 1), settings.quietEnd, timeZone);
}
