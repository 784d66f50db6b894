import { lazyTexts } from '../../i18n/lazy-texts';

/**
 * The share-results dialog's texts (result-sharing.json), loaded with the result page's share
 * button, so none of them rides in the booking home's entry chunk (docs/web.md#budgets).
 */
const texts = lazyTexts(() => import('../../i18n/locales/en/result-sharing.json'), {
  mk: () => import('../../i18n/locales/mk/result-sharing.json'),
});

export const loadResultSharingTexts = texts.load;
export const useResultSharingTexts = texts.useTexts;
