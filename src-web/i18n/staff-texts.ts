import { lazyTexts } from './lazy-texts';

/** The texts of the staff sign-in pages and the account menu: staff.json, loaded with that code, never on the booking home. */
const texts = lazyTexts(() => import('./locales/en/staff.json'), {
  mk: () => import('./locales/mk/staff.json'),
});

export const loadStaffTexts = texts.load;
export const useStaffTexts = texts.useTexts;
