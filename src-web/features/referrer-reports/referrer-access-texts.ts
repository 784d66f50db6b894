import { lazyTexts } from '../../i18n/lazy-texts';

/**
 * The referrer report list's texts (referrer-access.json), loaded with that page, so none of them
 * rides in the booking home's entry chunk or the other staff pages (docs/web.md#budgets).
 */
const texts = lazyTexts(() => import('../../i18n/locales/en/referrer-access.json'), {
  mk: () => import('../../i18n/locales/mk/referrer-access.json'),
});

export const loadReferrerAccessTexts = texts.load;
export const useReferrerAccessTexts = texts.useTexts;
