import { lazyTexts } from '../../i18n/lazy-texts';

/**
 * The staff booking-request queue's texts (staff-booking-requests.json), loaded with that page, so none of them
 * rides in the booking home's entry chunk or the other staff pages (docs/web.md#budgets).
 */
const texts = lazyTexts(() => import('../../i18n/locales/en/staff-booking-requests.json'), {
  mk: () => import('../../i18n/locales/mk/staff-booking-requests.json'),
});

export const loadStaffBookingRequestsTexts = texts.load;
export const useStaffBookingRequestsTexts = texts.useTexts;
