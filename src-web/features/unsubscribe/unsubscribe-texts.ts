import { lazyTexts } from '../../i18n/lazy-texts';

/**
 * The unsubscribe page's texts (unsubscribe.json), loaded with that page, so none of them rides in
 * the booking home's entry chunk (docs/web.md#budgets).
 */
const texts = lazyTexts(() => import('../../i18n/locales/en/unsubscribe.json'), {
  mk: () => import('../../i18n/locales/mk/unsubscribe.json'),
});

export const useUnsubscribeTexts = texts.useTexts;
