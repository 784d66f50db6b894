import { lazyTexts } from './lazy-texts';

/**
 * The texts of the staff pages and the account menu (sign-in, image-viewer sign-in, e-mail
 * preview): staff.json, loaded with that code, so none of them rides in the booking home's entry
 * chunk (docs/web.md#budgets).
 */
const texts = lazyTexts(() => import('./locales/en/staff.json'), {
  mk: () => import('./locales/mk/staff.json'),
});

export const loadStaffTexts = texts.load;
export const useStaffTexts = texts.useTexts;
