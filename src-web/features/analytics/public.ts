// Re-exports only (docs/web.md#budgets): the consent banner imports this chunk on "Allow analytics".
export { loadAnalytics, withdrawAnalytics, SITE_SPEED_SAMPLE_RATE, BOOKING_STEP_ANALYTICS_EVENT } from './load-analytics';
