import { lazyTexts } from './lazy-texts';

/**
 * The patient result page's texts (results.json), loaded with that page, so none of them rides in
 * the booking home's entry chunk (docs/web.md#budgets).
 */
const texts = lazyTexts(() => import('./locales/en/results.json'), {
  mk: () => import('./locales/mk/results.json'),
});

export const loadResultsTexts = texts.load;
export const useResultsTexts = texts.useTexts;
