import { z } from 'zod';
import { staffQueueListSchema } from './common';
import { multiLineText } from './text';

/**
 * The staff queue of screenings waiting for review (docs/rules/screening-review.md): bookings whose
 * answers fired a REVIEW_BOOKING outcome hold their time ON_HOLD until a radiographer approves or
 * declines them; an undecided one expires before the appointment.
 */

export const STAFF_SCREENING_REVIEWS_PATH = '/api/staff/screening-reviews';
export const screeningReviewDecisionPath = (reviewId: string, decision: ScreeningReviewDecision): string =>
  `${STAFF_SCREENING_REVIEWS_PATH}/${encodeURIComponent(reviewId)}/${decision}`;

export const SCREENING_REVIEW_DECISIONS = ['approve', 'decline'] as const;
export type ScreeningReviewDecision = (typeof SCREENING_REVIEW_DECISIONS)[number];

/** Pending reviews listed at most. */
export const SCREENING_REVIEW_LIST_CAP = 200;
export const SCREENING_REVIEW_NOTE_MAX = 1000;

export const SCREENING_REVIEW_MESSAGES = {
  notFound: 'No screening review has this id.',
  decided: 'This screening has already been decided, or it expired.',
  noLongerHeld: 'The booking is no longer waiting (the patient cancelled it): there is nothing to decide.',
  noteRequired: 'Please write why the booking is declined: the patient reads it.',
  note: `The note can be at most ${SCREENING_REVIEW_NOTE_MAX} characters.`,
} as const;

const Instant = z.iso.datetime({ offset: true });

export const ScreeningReviewSchema = z.object({
  id: z.uuid(),
  /** The queue lists only undecided reviews ('open', as every staff queue calls them). */
  status: z.literal('open'),
  /** The booking the review holds; staff may open everything of any booking. */
  bookingKey: z.string(),
  createdAt: Instant,
  /** When an undecided review is cancelled. */
  expiresAt: Instant,
  /** The outcome's message the patient was shown. */
  reason: z.string().nullable(),
  clinicName: z.string(),
  /** The first appointment's start. */
  startsAt: Instant,
  exams: z.array(z.string()),
  patient: z.object({ name: z.string(), dateOfBirth: z.string(), email: z.string().nullable(), phone: z.string().nullable() }),
  /** The screening answers, question by question, as the questionnaire words them. */
  answers: z.array(z.object({ questionnaire: z.string(), items: z.array(z.object({ question: z.string(), answer: z.string() })) })),
  /** The documents uploaded with the booking, each with the staff download link. */
  documents: z.array(z.object({ fileName: z.string(), downloadUrl: z.string() })),
});
export type ScreeningReview = z.infer<typeof ScreeningReviewSchema>;

export const ScreeningReviewListSchema = staffQueueListSchema(ScreeningReviewSchema);
export type ScreeningReviewList = z.infer<typeof ScreeningReviewListSchema>;

export const ScreeningReviewParamsSchema = z.strictObject({ reviewId: z.uuid() });

/** Approve: an optional note for the record. Decline: the note is required (the patient's mail quotes it). */
export const ScreeningReviewDecisionBodySchema = z.strictObject({
  note: multiLineText().trim().max(SCREENING_REVIEW_NOTE_MAX, SCREENING_REVIEW_MESSAGES.note).optional(),
});
export type ScreeningReviewDecisionBody = z.infer<typeof ScreeningReviewDecisionBodySchema>;
