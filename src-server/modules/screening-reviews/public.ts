/** What other modules may use of screening reviews (docs/rules/screening-review.md). */
export { createScreeningReviews, type ScreeningReviews } from './service';
export { openScreeningReview } from './open-review';
export { registerScreeningReviewRoutes } from './routes';
