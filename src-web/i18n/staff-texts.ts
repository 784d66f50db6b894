import { lazyTexts } from './lazy-texts';

/**
 * The texts of the staff pages (the e-mail preview today): staff.json, loaded with those pages,
 * so none of them rides in the booking home's entry chunk (docs/web.md#budgets).
 */
const texts = lazyTexts(() => import('./locales/en/staff.json'), {
  mk: () => import('./locales/mk/staff.json'),
});

export const loadStaffTexts = texts.load;
export const useStaffTexts = texts.useTexts;
