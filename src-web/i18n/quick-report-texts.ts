import { lazyTexts } from './lazy-texts';

/**
 * The referrer's quick report texts (quick-report.json), loaded with that page, so none of them
 * rides in the booking home's entry chunk (docs/web.md#budgets).
 */
const texts = lazyTexts(() => import('./locales/en/quick-report.json'), {
  mk: () => import('./locales/mk/quick-report.json'),
});

export const loadQuickReportTexts = texts.load;
export const useQuickReportTexts = texts.useTexts;
