import { lazyTexts } from './lazy-texts';

/** The booking code box on the confirmation and appointment pages (booking-code.json), loaded with it. */
const texts = lazyTexts(() => import('./locales/en/booking-code.json'), {
  mk: () => import('./locales/mk/booking-code.json'),
});

export const loadBookingCodeTexts = texts.load;
export const useBookingCodeTexts = texts.useTexts;
