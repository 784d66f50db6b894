import { dateTimeFormat } from '../../platform/dates';

/**
 * What the referrer's list and quick report share: one way to write when a report came, and the
 * mark a quick report opened from the list carries so it can lead back (docs/rules/referrers.md).
 */

/** When a report was delivered, in the reader's locale: the same on the list and the quick report. */
export function formatReportedAt(instant: string, locale: string): string {
  return dateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(instant));
}

/** The query parameter (and its value) of a quick report opened from the list. */
export const FROM_PARAM = 'from';
export const FROM_LIST = 'list';

/** The list's link to a quick report: the server's path, marked as opened from the list. */
export const listToQuickReport = (quickReportPath: string): string =>
  `${quickReportPath}${quickReportPath.includes('?') ? '&' : '?'}${FROM_PARAM}=${FROM_LIST}`;
