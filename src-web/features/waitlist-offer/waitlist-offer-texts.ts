import { lazyTexts } from '../../i18n/lazy-texts';

/** The waitlist offer page's texts (waitlist-offer.json), loaded with that page only (docs/web.md#budgets). */
const texts = lazyTexts(() => import('../../i18n/locales/en/waitlist-offer.json'), {
  mk: () => import('../../i18n/locales/mk/waitlist-offer.json'),
});

export const useWaitlistOfferTexts = texts.useTexts;
