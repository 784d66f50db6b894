import { lazyTexts } from '../../i18n/lazy-texts';

/**
 * The analytics consent banner's texts (consent.json), loaded with the banner only where the
 * provider turned analytics on, so none of them rides in the booking home's entry chunk (docs/web.md#budgets).
 */
const texts = lazyTexts(() => import('../../i18n/locales/en/consent.json'), {
  mk: () => import('../../i18n/locales/mk/consent.json'),
});

export const useConsentTexts = texts.useTexts;
