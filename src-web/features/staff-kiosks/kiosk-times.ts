import { dateTimeFormat } from '../../platform/dates';

/**
 * A kiosk's time (enrolled, last seen, a code's expiry) as date and time with the zone's short
 * name, in the clinic's zone when the kiosk has a clinic (what its staff read on the wall clock),
 * else in this browser's zone.
 */
export function formatKioskTime(iso: string, locale: string, timeZone?: string): string {
  return dateTimeFormat(locale, {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
    ...(timeZone ? { timeZone } : {}),
  }).format(new Date(iso));
}

/** How long the kiosk app has run, in the largest whole unit that fits (minutes, hours, days). */
export function formatUptime(seconds: number, locale: string): string {
  const [value, unit] =
    seconds >= 2 * 86_400
      ? [Math.floor(seconds / 86_400), 'day']
      : seconds >= 3_600
        ? [Math.floor(seconds / 3_600), 'hour']
        : [Math.floor(seconds / 60), 'minute'];
  return new Intl.NumberFormat(locale, { style: 'unit', unit, unitDisplay: 'long' }).format(value);
}
