import { lazyTexts } from '../../i18n/lazy-texts';

/**
 * The screening review queue's texts (staff-screening-reviews.json), loaded with that page, so none of them
 * rides in the booking home's entry chunk or the other staff pages (docs/web.md#budgets).
 */
const texts = lazyTexts(() => import('../../i18n/locales/en/staff-screening-reviews.json'), {
  mk: () => import('../../i18n/locales/mk/staff-screening-reviews.json'),
});

export const useStaffScreeningReviewsTexts = texts.useTexts;
