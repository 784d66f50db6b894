import type { Hl7Message, Hl7Segment } from '@medplum/core';
import { zonedTimeToInstant } from '../time-zone';

/**
 * Reading HL7 v2 fields of a message from the RIS. @medplum/core's Hl7Message splits a message
 * into segments, fields, repetitions and components but leaves the escape sequences in the text:
 * hl7Unescape turns them back into what was meant (HL7 v2.5.1 2.7.4; the inverse of hl7Escape).
 */

const DELIMITERS: Record<string, string> = { F: '|', S: '^', T: '&', R: '~', E: '\\' };

/** A component's text with its escape sequences decoded; `\.br\` (and `\.sp\`) as a line break; other formatting dropped. */
export function hl7Unescape(text: string): string {
  return text.replace(/\\([^\\]*)\\/g, (whole, code: string) => {
    const delimiter = DELIMITERS[code];
    if (delimiter !== undefined) return delimiter;
    if (/^\.br$/i.test(code) || /^\.sp\d*$/i.test(code)) return '\n';
    // \Xhh…\: bytes in hex, as UTF-8.
    if (/^X([0-9A-Fa-f]{2})+$/.test(code)) return Buffer.from(code.slice(1), 'hex').toString('utf8');
    // \H\, \N\ (highlighting), \.in\, \.ti\, \.fi\, \.nf\, \.ce\ and others: formatting the portal does not keep.
    return /^(H|N|\.[a-z]{2}[+-]?\d*|Z.*|C[0-9A-Fa-f]+|M[0-9A-Fa-f]+)$/i.test(code) ? '' : whole;
  });
}

/** The first repetition's component (1-based) of a field, decoded; '' when absent. */
export function componentText(segment: Hl7Segment | undefined, field: number, component = 1): string {
  if (segment === undefined) return '';
  return hl7Unescape(segment.getComponent(field, component)).trim();
}

/** Every repetition of a field's first component, decoded. */
export function repetitionsText(segment: Hl7Segment, field: number): string[] {
  const value = segment.getField(field);
  return value.components.map((_, index) => hl7Unescape(value.getComponent(1, undefined, index)));
}

/** MSH-9 as `ORU^R01`: message code and trigger event. */
export function messageTypeOf(message: Hl7Message): string {
  const header = message.header;
  return `${header.getComponent(9, 1).trim().toUpperCase()}^${header.getComponent(9, 2).trim().toUpperCase()}`;
}

const TIMESTAMP = /^(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?(?:\.\d{1,4})?([+-]\d{4})?$/;

/**
 * A DTM (YYYY[MM[DD[HH[MM[SS[.S]]]]]][+/-ZZZZ]) as an instant; without an offset it is the
 * clinic's local time. null when absent or not a valid time.
 */
export function parseHl7Timestamp(text: string, timeZone: string): Date | null {
  const match = TIMESTAMP.exec(text.trim());
  if (match === null) return null;
  const [, year, month = '01', day = '01', hour = '00', minute = '00', second = '00', offset] = match;
  const date = `${year}-${month}-${day}`;
  const check = new Date(`${date}T00:00:00Z`);
  if (
    Number.isNaN(check.getTime()) ||
    check.toISOString().slice(0, 10) !== date ||
    Number(hour) > 23 ||
    Number(minute) > 59 ||
    Number(second) > 59
  )
    return null;
  if (offset === undefined) return new Date(zonedTimeToInstant(date, `${hour}:${minute}`, timeZone).getTime() + Number(second) * 1000);
  const sign = offset.startsWith('-') ? -1 : 1;
  const offsetMinutes = sign * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(3, 5)));
  return new Date(Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute) - offsetMinutes, Number(second)));
}
