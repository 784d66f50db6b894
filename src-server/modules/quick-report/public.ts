/** What the app may use of the referrer's quick report (docs/rules/referrers.md#quick-report). */
export { createQuickReport, type QuickReportService } from './service';
export { registerQuickReportRoutes } from './routes';
