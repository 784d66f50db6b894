/**
 * "Add to calendar" links for calendars on the web (docs/rules/booking.md#add-to-calendar): Google
 * Calendar's event template and Outlook on the web's compose page, each with the title, the
 * times in UTC, the clinic's address and the preparation. The .ics download is the server's
 * (GET /api/appointments/{bookingKey}/calendar.ics); these need no file.
 */

export interface CalendarLinkEvent {
  title: string;
  /** ISO instants. */
  startsAt: string;
  endsAt: string;
  location: string;
  details: string;
}

/** A long preparation would make a link some browsers and calendars refuse (about 2,000 characters). */
export const MAX_DETAILS = 1000;

function shortened(details: string): string {
  return details.length <= MAX_DETAILS ? details : `${details.slice(0, MAX_DETAILS - 1).trimEnd()}…`;
}

/** 2026-03-20T01:30:00.000Z -> 20260320T013000Z (Google's dates, UTC). */
export function compactUtc(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) throw new RangeError(`compactUtc: not an instant: ${iso}`);
  return date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

/** 2026-03-20T01:30:00.000Z -> 2026-03-20T01:30:00Z (Outlook's startdt and enddt, UTC). */
function isoSeconds(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) throw new RangeError(`isoSeconds: not an instant: ${iso}`);
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function googleCalendarUrl(event: CalendarLinkEvent): string {
  const params = new URLSearchParams({
    action: 'TEMPLATE',
    text: event.title,
    dates: `${compactUtc(event.startsAt)}/${compactUtc(event.endsAt)}`,
    location: event.location,
    details: shortened(event.details),
  });
  return `https://calendar.google.com/calendar/render?${params.toString()}`;
}

export function outlookCalendarUrl(event: CalendarLinkEvent): string {
  const params = new URLSearchParams({
    path: '/calendar/action/compose',
    rru: 'addevent',
    subject: event.title,
    startdt: isoSeconds(event.startsAt),
    enddt: isoSeconds(event.endsAt),
    location: event.location,
    body: shortened(event.details),
  });
  return `https://outlook.live.com/calendar/0/deeplink/compose?${params.toString()}`;
}
