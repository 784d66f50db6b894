// What other areas (the quick report, the feedback page) use of the referrer's list: re-exports only.
export { formatReportedAt, FROM_LIST, FROM_PARAM, listToQuickReport } from './report-dates';
