import type { AvailabilityIndex } from '../availability/public';
import { addDays } from '../schedule/public';
import { localDate } from '../../platform/time-zone';
import type { TimeRange } from './search-values';

/**
 * The free starts of an exam at a clinic in a range of instants (the Slot search's `start`, read by
 * search-values.ts), taken from the availability index the booking pages use (no second
 * computation of free times).
 */

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
