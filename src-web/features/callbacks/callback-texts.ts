import { lazyTexts } from '../../i18n/lazy-texts';

/**
 * The "Ask us to call you" page's texts (callback.json), loaded with that page, so none of them
 * rides in the booking home's entry chunk (docs/web.md#budgets).
 */
const texts = lazyTexts(() => import('../../i18n/locales/en/callback.json'), {
  mk: () => import('../../i18n/locales/mk/callback.json'),
});

export const loadCallbackTexts = texts.load;
export const useCallbackTexts = texts.useTexts;
