import { lazyTexts } from '../../i18n/lazy-texts';

/**
 * The texts of the documents widget and viewer: attachments.json, loaded with that code, so none
 * of them rides in the booking home's entry chunk (docs/web.md#budgets).
 */
const texts = lazyTexts(() => import('../../i18n/locales/en/attachments.json'), {
  mk: () => import('../../i18n/locales/mk/attachments.json'),
});

export const loadAttachmentsTexts = texts.load;
export const useAttachmentsTexts = texts.useTexts;
