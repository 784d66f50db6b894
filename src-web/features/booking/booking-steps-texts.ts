import { lazyTexts } from '../../i18n/lazy-texts';

/**
 * The texts of the booking steps after the exam choice (clinic and time, map, calendar, details,
 * failures, confirmation): booking-steps.json, loaded once an exam is chosen, with those steps'
 * code, instead of riding in the booking home's entry chunk (docs/web.md#budgets). The step
 * titles stay in translation.json: the page names every step.
 */
const texts = lazyTexts(() => import('../../i18n/locales/en/booking-steps.json'), {
  mk: () => import('../../i18n/locales/mk/booking-steps.json'),
});

export const loadBookingStepsTexts = texts.load;
export const useBookingStepsTexts = texts.useTexts;
