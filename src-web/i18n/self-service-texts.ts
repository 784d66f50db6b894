import { lazyTexts } from './lazy-texts';

/**
 * The texts of the self-service pages (appointment, booking request, the reschedule step):
 * self-service.json, loaded with those pages; they are more than the booking home's JavaScript
 * budget allows (docs/web.md#budgets).
 */
const texts = lazyTexts(() => import('./locales/en/self-service.json'), {
  mk: () => import('./locales/mk/self-service.json'),
});

export const loadSelfServiceTexts = texts.load;
export const useSelfServiceTexts = texts.useTexts;
