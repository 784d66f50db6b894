import { lazyTexts } from '../../i18n/lazy-texts';

/**
 * The staff referrer-feedback page's texts (staff-feedback.json), loaded with that page, so none
 * of them rides in the booking home's entry chunk or the referrer's feedback page (docs/web.md#budgets).
 */
const texts = lazyTexts(() => import('../../i18n/locales/en/staff-feedback.json'), {
  mk: () => import('../../i18n/locales/mk/staff-feedback.json'),
});

export const loadStaffFeedbackTexts = texts.load;
export const useStaffFeedbackTexts = texts.useTexts;
