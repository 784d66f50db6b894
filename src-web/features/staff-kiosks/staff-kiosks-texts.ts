import { lazyTexts } from '../../i18n/lazy-texts';

/**
 * The staff kiosk page's texts (staff-kiosks.json), loaded with that page, so none of them rides
 * in the booking home's entry chunk or the other staff pages (docs/web.md#budgets).
 */
const texts = lazyTexts(() => import('../../i18n/locales/en/staff-kiosks.json'), {
  mk: () => import('../../i18n/locales/mk/staff-kiosks.json'),
});

export const loadStaffKiosksTexts = texts.load;
export const useStaffKiosksTexts = texts.useTexts;
