import { createInstance, type i18n as I18nInstance, type ResourceKey } from 'i18next';
import type { SupportedLocale, TranslationOverlay } from '@contract/api/config';
import en from './locales/en/translation.json';

/**
 * Hand-written catalogues besides English, loaded on demand so a visitor downloads one
 * language. English is bundled: it is the last fallback of every locale and complete.
 */
const CATALOGUES: Record<Exclude<SupportedLocale, 'en'>, () => Promise<{ default: ResourceKey }>> = {
  'en-AU': () => import('./locales/en-AU/translation.json'),
  'en-NZ': () => import('./locales/en-NZ/translation.json'),
  'en-CA': () => import('./locales/en-CA/translation.json'),
  mk: () => import('./locales/mk/translation.json'),
};

/** Starts downloading a locale's catalogue early; createI18n then finds it loaded. */
export function preloadCatalogue(locale: SupportedLocale): void {
  if (locale !== 'en') void CATALOGUES[locale]().catch(() => undefined);
}

/**
 * Creates the app's own i18next instance (no global singleton, so every test gets a fresh one).
 * Lookup order: server overlay, then the locale's catalogue, then English.
 *
 * @param locale - an already resolved locale (see resolveLocale).
 * @param overlay - the server's translations for that locale ({} when none).
 */
export async function createI18n(locale: SupportedLocale, overlay: TranslationOverlay): Promise<I18nInstance> {
  const instance = createInstance();
  await instance.init({
    lng: locale,
    fallbackLng: 'en',
    supportedLngs: ['en', 'en-AU', 'en-NZ', 'en-CA', 'mk'],
    resources: { en: { translation: en } },
    // React escapes text nodes already; escaping here would show &amp; to patients.
    interpolation: { escapeValue: false },
    initAsync: false,
  });
  if (locale !== 'en') {
    const catalogue = await CATALOGUES[locale]();
    instance.addResourceBundle(locale, 'translation', catalogue.default, true, true);
  }
  // The provider's own wording wins over ours, key by key (deep merge, overwrite).
  instance.addResourceBundle(locale, 'translation', overlay, true, true);
  return instance;
}
