import type { StillMissingItem } from '@contract/api/check-in-checklist';
import type { DayPlan, DayPlanStep } from '@contract/api/day-plan';
import { clinicAddressLine } from '../../db/clinic-columns';

/**
 * The day planned before arrival (docs/rules/day-plan.md), built from what is read elsewhere
 * (day-plan-repository.ts): nothing here reads the database or the clock, so every rule of the
 * plan is tested with plain values.
 */

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/** One coming appointment of the booking, with its exam's timed preparation (0016, 0044). */
export interface DayPlanExam {
  examName: string;
  startsAt: Date;
  fastingHours: number | null;
  drink: { amount: string; fromMinutes: number; untilMinutes: number } | null;
  medicationStop: { medicine: string; hours: number } | null;
  /** The exam's own lead; null: the clinic's. */
  arrivalMinutes: number | null;
}

export interface DayPlanClinicSource {
  name: string;
  street: string;
  suburb: string;
  state: string;
  postcode: string;
  timeZone: string;
  parking: string;
  /** The clinic's usual lead for check-in. */
  arrivalMinutes: number;
}

export interface DayPlanSource {
  /** The booking's appointments still to come, any order. */
  exams: readonly DayPlanExam[];
  clinic: DayPlanClinicSource;
  missing: readonly StillMissingItem[];
}

/** At one instant, stops come before what follows them, and arriving before the exam. */
const KIND_ORDER: Record<DayPlanStep['kind'], number> = { STOP_MEDICATION: 0, STOP_EATING: 1, DRINK: 2, ARRIVE: 3, EXAM: 4 };

/** An OpenStreetMap search of the address: no key, no tracking parameters, works in any browser. */
export function mapSearchUrl(address: string): string {
  return `https://www.openstreetmap.org/search?query=${encodeURIComponent(address)}`;
}

const before = (start: Date, milliseconds: number): Date => new Date(start.getTime() - milliseconds);

/**
 * The one fasting step of the booking: from the earliest of its exams' fasting starts (two exams
 * that both fast are one fast, long enough for both).
 */
function fastingStep(exams: readonly DayPlanExam[]): { at: Date; fastingHours: number } | null {
  let earliest: { at: Date; fastingHours: number } | null = null;
  for (const exam of exams) {
    if (exam.fastingHours === null) continue;
    const at = before(exam.startsAt, exam.fastingHours * HOUR_MS);
    if (earliest === null || at < earliest.at) earliest = { at, fastingHours: exam.fastingHours };
  }
  return earliest;
}

/** One arrival for the booking: the earliest an exam asks for, by its lead or the clinic's. */
function arrivalAt(exams: readonly DayPlanExam[], clinicMinutes: number): Date {
  const times = exams.map((exam) => before(exam.startsAt, (exam.arrivalMinutes ?? clinicMinutes) * MINUTE_MS).getTime());
  return new Date(Math.min(...times));
}

/** A step before its time is set (Omit over each kind of the union). */
type Untimed<Step> = Step extends unknown ? Omit<Step, 'at' | 'past'> : never;
type UntimedStep = Untimed<DayPlanStep>;

/** The booking's timed steps, in time order; `past` when the step (a drink window: its end) is over at `now`. */
function timedSteps(exams: readonly DayPlanExam[], clinicArrivalMinutes: number, now: Date): DayPlanStep[] {
  const steps: Array<{ at: Date; step: UntimedStep; endsAt?: Date }> = [];
  for (const exam of exams) {
    if (exam.medicationStop !== null) {
      const { medicine, hours } = exam.medicationStop;
      steps.push({ at: before(exam.startsAt, hours * HOUR_MS), step: { kind: 'STOP_MEDICATION', medicine, examName: exam.examName } });
    }
    if (exam.drink !== null) {
      const { amount, fromMinutes, untilMinutes } = exam.drink;
      const until = before(exam.startsAt, untilMinutes * MINUTE_MS);
      const at = before(exam.startsAt, fromMinutes * MINUTE_MS);
      steps.push({ at, endsAt: until, step: { kind: 'DRINK', until: until.toISOString(), amount, examName: exam.examName } });
    }
    steps.push({ at: exam.startsAt, step: { kind: 'EXAM', examName: exam.examName } });
  }
  const fasting = fastingStep(exams);
  if (fasting !== null) steps.push({ at: fasting.at, step: { kind: 'STOP_EATING', fastingHours: fasting.fastingHours } });
  steps.push({ at: arrivalAt(exams, clinicArrivalMinutes), step: { kind: 'ARRIVE' } });

  steps.sort((a, b) => a.at.getTime() - b.at.getTime() || KIND_ORDER[a.step.kind] - KIND_ORDER[b.step.kind]);
  return steps.map(({ at, endsAt, step }) => ({ ...step, at: at.toISOString(), past: (endsAt ?? at) <= now }) as DayPlanStep);
}

/** The plan of a booking at `now`; no steps when none of its appointments is still to come. */
export function buildDayPlan(source: DayPlanSource, now: Date): DayPlan {
  const { clinic } = source;
  const address = clinicAddressLine(clinic);
  return {
    timeZone: clinic.timeZone,
    steps: source.exams.length === 0 ? [] : timedSteps(source.exams, clinic.arrivalMinutes, now),
    missing: [...source.missing],
    clinic: {
      name: clinic.name,
      address,
      mapUrl: mapSearchUrl(address),
      parking: clinic.parking.trim() === '' ? null : clinic.parking.trim(),
    },
  };
}
