import { lazyTexts } from './lazy-texts';

/** Scanning a booking code at the kiosk (kiosk-scan.json): loaded with the kiosk home only. */
const texts = lazyTexts(() => import('./locales/en/kiosk-scan.json'), {
  mk: () => import('./locales/mk/kiosk-scan.json'),
});

export const loadKioskScanTexts = texts.load;
export const useKioskScanTexts = texts.useTexts;
