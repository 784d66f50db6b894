/** What the app may use of referrer feedback (docs/rules/referrers.md#report-quality-feedback). */
export { createReferrerFeedback, type ReferrerFeedbackService } from './service';
export { registerReferrerFeedbackRoutes } from './routes';
