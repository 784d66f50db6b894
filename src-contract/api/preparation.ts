import { z } from 'zod';

/**
 * An exam's preparation as parts with conditions (docs/rules/booking.md#preparation), so the
 * texts know what the patient already did online: a part with `unless: 'screeningDone'` ("Before
 * you book, tell us if you have a pacemaker") drops out once the screening questions were
 * answered, a part with `when: 'screeningDone'` ("You have completed the MRI safety questions
 * online") shows only then. Conditions are data, never string surgery on the joined text.
 */

export const PREPARATION_CONDITIONS = ['screeningDone', 'referralUploaded'] as const;
export const PreparationConditionSchema = z.enum(PREPARATION_CONDITIONS);
export type PreparationCondition = z.infer<typeof PreparationConditionSchema>;

export const PreparationPartSchema = z
  .strictObject({
    text: z.string().trim().min(1),
    /** Shown only when this happened. */
    when: PreparationConditionSchema.optional(),
    /** Left out when this happened. */
    unless: PreparationConditionSchema.optional(),
  })
  .refine((part) => part.when === undefined || part.unless === undefined || part.when !== part.unless, {
    message: 'a part cannot be shown only when, and left out when, the same thing happened',
  });
export type PreparationPart = z.infer<typeof PreparationPartSchema>;

/** Plain text (no conditions) or parts. */
export const PreparationSchema = z.union([z.string(), z.array(PreparationPartSchema)]);
export type Preparation = z.infer<typeof PreparationSchema>;

/** What the patient already did online, per booked exam. */
export type PreparationFacts = Readonly<Record<PreparationCondition, boolean>>;

/** Nothing done yet: what the catalogue shows before booking. */
export const NOTHING_DONE: PreparationFacts = Object.freeze({ screeningDone: false, referralUploaded: false });

/** The parts that apply, in their order, joined with one space. */
export function preparationText(preparation: Preparation, facts: PreparationFacts): string {
  if (typeof preparation === 'string') return preparation.trim();
  return preparation
    .filter((part) => (part.when === undefined || facts[part.when]) && (part.unless === undefined || !facts[part.unless]))
    .map((part) => part.text.trim())
    .join(' ');
}
