import { z } from 'zod';
import { InstantSchema } from './booking';
import { StillMissingItemSchema } from './check-in-checklist';

/**
 * The day planned before arrival (docs/rules/day-plan.md): GET
 * /api/secured/appointments/{bookingKey}/day-plan. Timed steps from the booking's exams'
 * preparation, as instants; the web app shows them in `timeZone`, the clinic's. `past` is the
 * server's judgement at the time of the answer (the step's time, or a drink window's end, is over).
 */
const timed = { at: InstantSchema, past: z.boolean() };

export const DayPlanStepSchema = z.discriminatedUnion('kind', [
  /** Stop a medicine from `at` (hours before the exam's start). */
  z.object({ kind: z.literal('STOP_MEDICATION'), ...timed, medicine: z.string(), examName: z.string() }),
  /** Nothing to eat from `at`: the earliest fasting start of the booking's exams. */
  z.object({ kind: z.literal('STOP_EATING'), ...timed, fastingHours: z.number().int().min(1) }),
  /** Drink `amount` between `at` and `until`. */
  z.object({ kind: z.literal('DRINK'), ...timed, until: InstantSchema, amount: z.string(), examName: z.string() }),
  /** Be at the clinic at `at`, to check in (one arrival for the whole booking). */
  z.object({ kind: z.literal('ARRIVE'), ...timed }),
  /** An exam starts. */
  z.object({ kind: z.literal('EXAM'), ...timed, examName: z.string() }),
]);
export type DayPlanStep = z.infer<typeof DayPlanStepSchema>;
export type DayPlanStepKind = DayPlanStep['kind'];

export const DayPlanClinicSchema = z.object({
  name: z.string(),
  /** One line: street, suburb state postcode. */
  address: z.string(),
  /** An https map search of the address. */
  mapUrl: z.string().url(),
  /** Where to park; null when the clinic says nothing. */
  parking: z.string().nullable(),
});
export type DayPlanClinic = z.infer<typeof DayPlanClinicSchema>;

export const DayPlanSchema = z.object({
  /** The clinic's IANA time zone, for every time of the plan. */
  timeZone: z.string(),
  /** In time order; empty when no appointment of the booking is still to come. */
  steps: z.array(DayPlanStepSchema),
  /** What the booking still lacks (the check-in checklist's rule): the page says what to do about each. */
  missing: z.array(StillMissingItemSchema),
  clinic: DayPlanClinicSchema,
});
export type DayPlan = z.infer<typeof DayPlanSchema>;
