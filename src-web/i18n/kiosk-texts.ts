import { lazyTexts } from './lazy-texts';

/** The kiosk check-in pages' texts (kiosk.json), loaded with those pages only. */
const texts = lazyTexts(() => import('./locales/en/kiosk.json'), {
  mk: () => import('./locales/mk/kiosk.json'),
});

export const loadKioskTexts = texts.load;
export const useKioskTexts = texts.useTexts;
