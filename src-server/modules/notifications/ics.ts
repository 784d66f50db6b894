/**
 * A minimal RFC 5545 calendar writer: just what a booking confirmation needs (VCALENDAR with
 * VEVENTs in UTC), with the two rules calendar apps are strict about: TEXT escaping (3.3.11) and
 * folding content lines at 75 octets with CRLF + one space (3.1).
 */

export interface CalendarEvent {
  /** Globally unique and stable for the same appointment, e.g. '<hash>@portal.example.com'. */
  uid: string;
  startsAt: Date;
  endsAt: Date;
  summary: string;
  location?: string;
  description?: string;
  url?: string;
  /** RFC 5545 3.8.1.11; CONFIRMED when omitted. */
  status?: 'CONFIRMED' | 'TENTATIVE';
}

export interface Calendar {
  /** e.g. '-//Example Radiology//Patient portal//EN' */
  productId: string;
  /** DTSTAMP: when this calendar object was created. */
  stamp: Date;
  events: readonly CalendarEvent[];
}

const MAX_LINE_OCTETS = 75;

/** Escapes a TEXT value: backslash, semicolon, comma and line breaks (RFC 5545 3.3.11). */
export function escapeIcsText(value: string): string {
  return value
    .replaceAll('\\', '\\\\')
    .replaceAll(';', '\\;')
    .replaceAll(',', '\\,')
    .replace(/\r\n|\r|\n/g, '\\n');
}

/**
 * Splits one content line into lines of at most 75 octets, continuation lines starting with a
 * space (which counts toward their 75), never inside a UTF-8 character.
 */
export function foldIcsLine(line: string): string {
  const parts: string[] = [];
  let current = '';
  let currentOctets = 0;
  for (const character of line) {
    const octets = Buffer.byteLength(character, 'utf8');
    if (currentOctets + octets > MAX_LINE_OCTETS) {
      parts.push(current);
      current = ' ';
      currentOctets = 1;
    }
    current += character;
    currentOctets += octets;
  }
  parts.push(current);
  return parts.join('\r\n');
}

/** An instant as a UTC DATE-TIME: 20260310T013000Z. */
export function icsDateTime(instant: Date): string {
  if (Number.isNaN(instant.getTime())) throw new RangeError('icsDateTime: invalid date');
  return instant
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

/** The whole calendar file: CRLF line ends, folded, ending with CRLF. */
export function buildIcs(calendar: Calendar): string {
  const lines: string[] = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:${escapeIcsText(calendar.productId)}`,
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
  ];
  for (const event of calendar.events) {
    if (!(event.endsAt.getTime() > event.startsAt.getTime())) throw new RangeError('buildIcs: an event must end after it starts');
    lines.push(
      'BEGIN:VEVENT',
      // UID is a TEXT value too, but ours never holds characters that need escaping.
      `UID:${escapeIcsText(event.uid)}`,
      `DTSTAMP:${icsDateTime(calendar.stamp)}`,
      `DTSTART:${icsDateTime(event.startsAt)}`,
      `DTEND:${icsDateTime(event.endsAt)}`,
      `SUMMARY:${escapeIcsText(event.summary)}`,
    );
    if (event.location !== undefined) lines.push(`LOCATION:${escapeIcsText(event.location)}`);
    if (event.description !== undefined) lines.push(`DESCRIPTION:${escapeIcsText(event.description)}`);
    // URI values are not TEXT: no escaping, only folding.
    if (event.url !== undefined) lines.push(`URL:${event.url}`);
    lines.push(`STATUS:${event.status ?? 'CONFIRMED'}`, 'SEQUENCE:0', 'TRANSP:OPAQUE', 'END:VEVENT');
  }
  lines.push('END:VCALENDAR');
  return `${lines.map(foldIcsLine).join('\r\n')}\r\n`;
}
