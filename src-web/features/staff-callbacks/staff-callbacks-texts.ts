import { lazyTexts } from '../../i18n/lazy-texts';

/**
 * The staff callback queue's texts (staff-callbacks.json), loaded with that page, so none of them
 * rides in the booking home's entry chunk or the other staff pages (docs/web.md#budgets).
 */
const texts = lazyTexts(() => import('../../i18n/locales/en/staff-callbacks.json'), {
  mk: () => import('../../i18n/locales/mk/staff-callbacks.json'),
});

export const loadStaffCallbacksTexts = texts.load;
export const useStaffCallbacksTexts = texts.useTexts;
