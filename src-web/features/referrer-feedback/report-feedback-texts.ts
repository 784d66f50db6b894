import { lazyTexts } from '../../i18n/lazy-texts';

/**
 * The referrer feedback pages' texts (report-feedback.json), loaded with those pages, so none
 * of them rides in the booking home's entry chunk (docs/web.md#budgets).
 */
const texts = lazyTexts(() => import('../../i18n/locales/en/report-feedback.json'), {
  mk: () => import('../../i18n/locales/mk/report-feedback.json'),
});

export const loadReportFeedbackTexts = texts.load;
export const useReportFeedbackTexts = texts.useTexts;
