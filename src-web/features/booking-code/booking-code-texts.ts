import { lazyTexts } from '../../i18n/lazy-texts';

/** The booking code box on the confirmation and appointment pages (booking-code.json), loaded with it. */
const texts = lazyTexts(() => import('../../i18n/locales/en/booking-code.json'), {
  mk: () => import('../../i18n/locales/mk/booking-code.json'),
});

export const loadBookingCodeTexts = texts.load;
export const useBookingCodeTexts = texts.useTexts;
