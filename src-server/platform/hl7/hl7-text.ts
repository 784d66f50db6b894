import { zonedWallClock } from '../time-zone';

/**
 * Writing HL7 v2 fields (ER7 encoding: `|` fields, `^` components, `~` repetitions, `\` escape,
 * `&` subcomponents). @medplum/core's Hl7Message parses and joins fields but does not escape a
 * value, so a name like "O'Brien & Sons" or a "|" typed into a form would break the message:
 * every value goes through hl7Escape (HL7 v2.5.1 2.7.4 escape sequences) before it is placed.
 */

const ESCAPES: Record<string, string> = { '\\': '\\E\\', '|': '\\F\\', '^': '\\S\\', '&': '\\T\\', '~': '\\R\\' };

/** A value as one component's text: delimiters escaped, line breaks and other control characters as spaces. */
export function hl7Escape(value: string | null | undefined): string {
  if (value === null || value === undefined) return '';
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is replaced
  return value.replace(/[\u0000-\u001f\u007f]/g, ' ').replace(/[\\|^&~]/g, (c) => ESCAPES[c] ?? c);
}

/** Components of one field, each escaped, trailing empty ones left out. */
export function components(...values: Array<string | number | null | undefined>): string {
  const parts = values.map((value) => (typeof value === 'number' ? String(value) : hl7Escape(value)));
  while (parts.length > 0 && parts.at(-1) === '') parts.pop();
  return parts.join('^');
}

/** A segment from its fields (already escaped), trailing empty fields left out. */
export function segment(name: string, ...fields: string[]): string {
  const parts = [...fields];
  while (parts.length > 0 && parts.at(-1) === '') parts.pop();
  return [name, ...parts].join('|');
}

const pad = (value: number, length = 2): string => String(value).padStart(length, '0');

/** A DTM in the clinic's local time with its offset: YYYYMMDDHHMMSS+HHMM. */
export function hl7Timestamp(instant: Date, timeZone: string): string {
  const wall = zonedWallClock(instant, timeZone);
  const sign = wall.offsetMinutes < 0 ? '-' : '+';
  const offset = Math.abs(wall.offsetMinutes);
  return `${wall.year}${pad(wall.month)}${pad(wall.day)}${pad(wall.hour)}${pad(wall.minute)}${pad(wall.second)}${sign}${pad(Math.floor(offset / 60))}${pad(offset % 60)}`;
}

/** A date (YYYY-MM-DD) as an HL7 DT (YYYYMMDD). */
export function hl7Date(isoDate: string): string {
  return isoDate.replace(/-/g, '');
}
