import { lazyTexts } from '../../i18n/lazy-texts';

/**
 * The chat assistant's texts (chat.json), loaded when the patient first opens the chat, so none
 * of them rides in the booking home's entry chunk (docs/web.md#budgets). Only the launcher's
 * label is in translation.json.
 */
const texts = lazyTexts(() => import('../../i18n/locales/en/chat.json'), {
  mk: () => import('../../i18n/locales/mk/chat.json'),
});

export const loadChatTexts = texts.load;
export const useChatTexts = texts.useTexts;
