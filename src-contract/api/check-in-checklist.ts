import { z } from 'zod';
import { InstantSchema } from './booking';

/**
 * What is still to do before the scan, shown after a successful check-in (docs/rules/check-in.md#checklist):
 * GET /api/secured/appointments/{bookingKey}/check-in/{appointmentSlug}/checklist, from what the
 * server knows about the booking. The web app words each kind; times are shown in the clinic's
 * time zone.
 */
/** What the booking still lacks: also the day plan's missing documents (src-contract/api/day-plan.ts). */
export const StillMissingItemSchema = z.discriminatedUnion('kind', [
  /** Consent forms of this booking not signed yet. */
  z.object({ kind: z.literal('CONSENT_FORMS'), count: z.number().int().min(1) }),
  /** The exam needs a referral and none is uploaded: the desk asks for it. */
  z.object({ kind: z.literal('REFERRAL'), documentTypeId: z.string().nullable() }),
  /** A document a questionnaire answer asked the patient to bring. */
  z.object({ kind: z.literal('BRING_DOCUMENT'), title: z.string(), description: z.string() }),
]);
export type StillMissingItem = z.infer<typeof StillMissingItemSchema>;

export const ChecklistItemSchema = z.discriminatedUnion('kind', [
  ...StillMissingItemSchema.options,
  /** An exam's preparation: its notes, and when fasting starts when the exam asks for it. */
  z.object({
    kind: z.literal('PREPARATION'),
    examName: z.string(),
    startsAt: InstantSchema,
    notes: z.string(),
    fastingHours: z.number().int().nullable(),
    nothingToEatFrom: InstantSchema.nullable(),
  }),
]);
export type ChecklistItem = z.infer<typeof ChecklistItemSchema>;

export const CheckInChecklistSchema = z.object({
  /** The clinic's IANA time zone, for the times of the items. */
  timeZone: z.string(),
  items: z.array(ChecklistItemSchema),
});
export type CheckInChecklist = z.infer<typeof CheckInChecklistSchema>;
