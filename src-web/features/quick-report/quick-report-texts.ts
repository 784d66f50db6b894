import { lazyTexts } from '../../i18n/lazy-texts';

/**
 * The referrer's quick report texts (quick-report.json), loaded with that page, so none of them
 * rides in the booking home's entry chunk (docs/web.md#budgets).
 */
const texts = lazyTexts(() => import('../../i18n/locales/en/quick-report.json'), {
  mk: () => import('../../i18n/locales/mk/quick-report.json'),
});

export const loadQuickReportTexts = texts.load;
export const useQuickReportTexts = texts.useTexts;
