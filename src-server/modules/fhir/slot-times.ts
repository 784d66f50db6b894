import type { AvailabilityIndex } from '../availability/public';
import { addDays } from '../schedule/public';
import { invalidParameter } from './outcome';
import { localDate } from '../../platform/time-zone';

/**
 * The times of the Slot search: the `start` parameter's prefixes (ge, gt, le, lt; eq or none for
 * the day or instant given) read into a half-open range of instants, and the free starts of an exam
 * at a clinic in that range, taken from the availability index the booking pages use (no second
 * computation of free times).
 */

export interface TimeRange {
  from: number;
  to: number;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;
const DAY = 24 * 60 * 60_000;

/** A date (a UTC day) or a dateTime with its zone, as [first instant, instant after]. */
function instantsOf(text: string): TimeRange {
  const at = DATE.test(text) ? Date.parse(`${text}T00:00:00Z`) : DATE_TIME.test(text) ? Date.parse(text) : NaN;
  if (Number.isNaN(at)) throw invalidParameter('start takes a date (2026-03-10) or a dateTime with its zone (2026-03-10T09:00:00+11:00).');
  return { from: at, to: DATE.test(text) ? at + DAY : at + 1 };
}

export function startRange(values: readonly string[] | undefined): TimeRange {
  const range: TimeRange = { from: Number.NEGATIVE_INFINITY, to: Number.POSITIVE_INFINITY };
  for (const value of values ?? []) {
    const match = /^(ge|gt|le|lt|eq)?(.*)$/.exec(value);
    const prefix = match?.[1] ?? 'eq';
    const { from, to } = instantsOf(match?.[2] ?? '');
    if (prefix === 'ge') range.from = Math.max(range.from, from);
    else if (prefix === 'gt') range.from = Math.max(range.from, to);
    else if (prefix === 'lt') range.to = Math.min(range.to, from);
    else if (prefix === 'le') range.to = Math.min(range.to, to);
    else {
      range.from = Math.max(range.from, from);
      range.to = Math.min(range.to, to);
    }
  }
  return range;
}

export interface SlotQuery {
  clinicId: string;
  timeZone: string;
  modalityId: string;
  durationMinutes: number;
  range: TimeRange;
  /** Only starts after this one (the paging cursor). */
  after: number | undefined;
  limit: number;
}

/** Free starts in the range, after the cursor, in time order, at most `limit`. */
export function freeStartsIn(index: AvailabilityIndex, query: SlotQuery, now: number): number[] {
  const window = index.window(query.clinicId, now);
  if (window === null) return [];
  const earliest = Math.max(query.range.from, query.after === undefined ? Number.NEGATIVE_INFINITY : query.after + 1, window.earliest);
  const firstDay = localDate(new Date(earliest), query.timeZone);
  const out: number[] = [];
  for (let day = firstDay < window.firstDate ? window.firstDate : firstDay; day <= window.lastDate; day = addDays(day, 1)) {
    for (const start of index.freeStarts(query.clinicId, query.modalityId, query.durationMinutes, day, now)) {
      if (start >= query.range.to) return out;
      if (start >= earliest) out.push(start);
      if (out.length >= query.limit) return out;
    }
  }
  return out;
}

/** Whether exactly this start is free (a Slot read). */
export function isFreeStart(
  index: AvailabilityIndex,
  query: Omit<SlotQuery, 'range' | 'after' | 'limit'>,
  start: number,
  now: number,
): boolean {
  return index
    .freeStarts(query.clinicId, query.modalityId, query.durationMinutes, localDate(new Date(start), query.timeZone), now)
    .includes(start);
}
