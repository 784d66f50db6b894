/**
 * The portal's locales as plain constants, without zod: the web's first screen imports
 * these, and importing them from config.ts would also pull zod (about 24 KB gzipped) into
 * the booking home's bundle (docs/web.md#budgets). config.ts re-exports them.
 */
export const SUPPORTED_LOCALES = ['en', 'en-AU', 'en-NZ', 'en-CA', 'mk'] as const;
export type SupportedLocale = (typeof SUPPORTED_LOCALES)[number];
export const FALLBACK_LOCALE: SupportedLocale = 'en-AU';

/** The supported locale a configured one names (case and `_` forgiven: `en_au` is `en-AU`), or null. */
export function supportedLocaleOf(requested: string | null | undefined): SupportedLocale | null {
  const wanted = (requested ?? '').trim().replace('_', '-').toLowerCase();
  return SUPPORTED_LOCALES.find((locale) => locale.toLowerCase() === wanted) ?? null;
}

/**
 * The server's translation overlay of a locale, as the web's API client asks it. The served
 * index.html preloads it (src-server/platform/index-html.ts), so the first render does not wait
 * for the app's code to download before the request starts.
 */
export function translationsPath(locale: SupportedLocale): string {
  return `/api/assets/translations?lang=${encodeURIComponent(locale)}`;
}
