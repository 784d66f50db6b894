import { lazyTexts } from '../../i18n/lazy-texts';

/**
 * The texts of the patient sign-in page (/authentication): sign-in.json, loaded with that page
 * rather than riding in the booking home's entry chunk (docs/web.md#budgets).
 */
const texts = lazyTexts(() => import('../../i18n/locales/en/sign-in.json'), {
  mk: () => import('../../i18n/locales/mk/sign-in.json'),
});

export const loadSignInTexts = texts.load;
export const useSignInTexts = texts.useTexts;
