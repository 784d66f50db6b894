/**
 * The portal's locales as plain constants, without zod: the web's first screen imports
 * these, and importing them from config.ts would also pull zod (about 24 KB gzipped) into
 * the booking home's bundle (docs/web.md#budgets). config.ts re-exports them.
 */
export const SUPPORTED_LOCALES = ['en', 'en-AU', 'en-NZ', 'en-CA', 'mk'] as const;
export type SupportedLocale = (typeof SUPPORTED_LOCALES)[number];
export const FALLBACK_LOCALE: SupportedLocale = 'en-AU';
