import { lazyTexts } from './lazy-texts';

/**
 * The texts of the documents widget and viewer: attachments.json, loaded with that code, so none
 * of them rides in the booking home's entry chunk (docs/web.md#budgets).
 */
const texts = lazyTexts(() => import('./locales/en/attachments.json'), {
  mk: () => import('./locales/mk/attachments.json'),
});

export const loadAttachmentsTexts = texts.load;
export const useAttachmentsTexts = texts.useTexts;
