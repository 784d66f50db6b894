import { lazyTexts } from '../../i18n/lazy-texts';

/**
 * The demo image viewer's texts (demo-viewer.json), loaded with that page, so none of them rides
 * in the booking home's entry chunk (docs/web.md#budgets).
 */
const texts = lazyTexts(() => import('../../i18n/locales/en/demo-viewer.json'), {
  mk: () => import('../../i18n/locales/mk/demo-viewer.json'),
});

export const loadDemoViewerTexts = texts.load;
export const useDemoViewerTexts = texts.useTexts;
