import { lazyTexts } from '../../i18n/lazy-texts';

/**
 * The reminder answer page's texts (appointment-reply.json), loaded with that page, so none of
 * them rides in the booking home's entry chunk (docs/web.md#budgets).
 */
const texts = lazyTexts(() => import('../../i18n/locales/en/appointment-reply.json'), {
  mk: () => import('../../i18n/locales/mk/appointment-reply.json'),
});

export const useAppointmentReplyTexts = texts.useTexts;
