import { dateTimeFormat } from '../../platform/dates';

/**
 * A share's time (shared, expires, revoked, opened) as date and time in this browser's zone: the
 * patient reads when something happened where they are, as the kiosk page does for its staff
 * (platform/dates.ts keeps the formatter cached).
 */
export function formatShareTime(iso: string, locale: string): string {
  return dateTimeFormat(locale, { day: 'numeric', month: 'short', year: 'numeric', hour: 'numeric', minute: '2-digit' }).format(
    new Date(iso),
  );
}
