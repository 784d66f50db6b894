import { lazyTexts } from './lazy-texts';

/**
 * The unsubscribe page's texts (unsubscribe.json), loaded with that page, so none of them rides in
 * the booking home's entry chunk (docs/web.md#budgets).
 */
const texts = lazyTexts(() => import('./locales/en/unsubscribe.json'), {
  mk: () => import('./locales/mk/unsubscribe.json'),
});

export const useUnsubscribeTexts = texts.useTexts;
