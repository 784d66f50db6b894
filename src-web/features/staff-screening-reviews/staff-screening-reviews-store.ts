import * as reviews from '@contract/api/screening-reviews';
import { staffQueueStoreOf } from '../../components/staff-queue-api';
import type { StaffQueueStore } from '../../components/staff-queue-store';
import type { FeatureStoreFactory } from '../../stores/root-store';

/**
 * /staff/screening-reviews (docs/rules/screening-review.md#the-staff-queue): the held screenings
 * the soonest to expire first, approved or declined through one dialog whose action is the
 * store's markAction ('approve' or 'decline'; src-contract/api/screening-reviews.ts).
 */
export type StaffScreeningReviewsStore = StaffQueueStore<reviews.ScreeningReview, reviews.ScreeningReviewList>;

const decisionOf = (action: string): reviews.ScreeningReviewDecision => (action === 'decline' ? 'decline' : 'approve');

export const staffScreeningReviewsStoreOf: FeatureStoreFactory<StaffScreeningReviewsStore> = staffQueueStoreOf({
  listPath: reviews.STAFF_SCREENING_REVIEWS_PATH,
  listSchema: reviews.ScreeningReviewListSchema,
  markPath: (item, action) => reviews.screeningReviewDecisionPath(item.id, decisionOf(action)),
  noteMax: reviews.SCREENING_REVIEW_NOTE_MAX,
  nameOf: (item) => item.patient.name,
});
