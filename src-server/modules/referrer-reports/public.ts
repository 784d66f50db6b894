/** What the app may use of referrer-reports (docs/rules/referrers.md#referrer-report-list). */
export { createReferrerReports, type ReferrerReportsService } from './service';
export { registerReferrerReportRoutes } from './routes';
