/** What other modules may use of screening reviews (docs/rules/screening-review.md). */
export { createScreeningReviews, openScreeningReview, type ScreeningReviews } from './service';
export { registerScreeningReviewRoutes } from './routes';
