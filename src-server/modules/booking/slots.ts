import type { Slot } from '@contract/api/booking';
import { validationError, type AppError } from '../../platform/errors';
import type { AvailabilityIndex } from '../availability/public';
import { addDays, localMidnight } from '../schedule/public';
import type { ClinicRow, ExamRow, NewSlotRow } from './repository';

/** Times as the booking answers show them, and the times a booking writes. Pure functions. */

export const MINUTE = 60_000;
/** How many fresh times a "just taken" answer suggests. */
const FRESH_SLOT_LIMIT = 24;
const FRESH_SLOT_DAYS = 7;

/** Great-circle distance in kilometres (haversine). */
export function distanceKm(a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }): number {
  const radians = (degrees: number): number => (degrees * Math.PI) / 180;
  const dLat = radians(b.latitude - a.latitude);
  const dLng = radians(b.longitude - a.longitude);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(radians(a.latitude)) * Math.cos(radians(b.latitude)) * Math.sin(dLng / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.min(1, Math.sqrt(h)));
}

const localTimeFormatters = new Map<string, Intl.DateTimeFormat>();
function formatLocalTime(instant: number, timeZone: string): string {
  let format = localTimeFormatters.get(timeZone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    localTimeFormatters.set(timeZone, format);
  }
  return format.format(new Date(instant));
}

/**
 * Slots of one local day with their wall-clock time. One zone conversion per day: a day without
 * a daylight-saving change has one offset; only the two change days a year format each slot.
 */
export function toSlots(starts: readonly number[], isoDate: string, timeZone: string): Slot[] {
  if (starts.length === 0) return [];
  const midnight = localMidnight(isoDate, timeZone);
  const nextMidnight = localMidnight(addDays(isoDate, 1), timeZone);
  const steady = nextMidnight - midnight === 24 * 60 * MINUTE;
  return starts.map((start) => {
    let localTime: string;
    if (steady) {
      const minutes = Math.floor((start - midnight) / MINUTE);
      localTime = `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
    } else {
      localTime = formatLocalTime(start, timeZone);
    }
    return { startsAt: new Date(start).toISOString(), localTime };
  });
}

/**
 * One day of the availability answer as JSON text, written directly: every value is an ISO
 * date, an ISO instant or HH:MM, so nothing needs escaping, and this is the hot path of an
 * uncached week (thousands of slots).
 */
export function renderDayJson(isoDate: string, starts: readonly number[], timeZone: string): string {
  const slots = toSlots(starts, isoDate, timeZone);
  let json = `{"date":"${isoDate}","slots":[`;
  for (let index = 0; index < slots.length; index++) {
    const slot = slots[index];
    if (slot === undefined) continue;
    json += `${index === 0 ? '' : ','}{"startsAt":"${slot.startsAt}","localTime":"${slot.localTime}"}`;
  }
  return `${json}]}`;
}

/** Free times suggested when the asked one was just taken: up to a week from `from`. */
export function freshSlots(
  index: AvailabilityIndex,
  clinic: ClinicRow,
  modalityId: string,
  durationMinutes: number,
  from: string,
  now: number,
): Slot[] {
  const slots: Slot[] = [];
  for (let day = 0; day < FRESH_SLOT_DAYS && slots.length < FRESH_SLOT_LIMIT; day++) {
    const date = addDays(from, day);
    slots.push(...toSlots(index.freeStarts(clinic.id, modalityId, durationMinutes, date, now), date, clinic.time_zone));
  }
  return slots.slice(0, FRESH_SLOT_LIMIT);
}

/** Consecutive times on one resource for the exams, in the order chosen. */
export function consecutive(exams: readonly ExamRow[], start: number): NewSlotRow[] {
  let cursor = start;
  return exams.map((exam) => {
    const slot = { examId: exam.id, start: new Date(cursor), end: new Date(cursor + exam.duration_minutes * MINUTE) };
    cursor += exam.duration_minutes * MINUTE;
    return slot;
  });
}

export function parseInstant(value: string): number {
  const instant = Date.parse(value);
  if (Number.isNaN(instant)) throw validationError('startsAt', 'The start time is not a valid date and time.');
  return instant;
}

export const notOffered = (): AppError => validationError('startsAt', 'That time is not offered. Please choose one of the listed times.');
