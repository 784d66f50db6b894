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
