import { FALLBACK_LOCALE, supportedLocaleOf, type SupportedLocale } from '@contract/api/locales';

/** 0 = Sunday, 1 = Monday, as dayjs and Intl number the first day of the week. */
export type WeekStart = 0 | 1;

/**
 * Maps a configured or requested locale onto one we ship catalogues for.
 * Case and the separator are forgiven (`en_au` is `en-AU`) because provider
 * configuration is typed by people; anything else warns and falls back to en-AU.
 *
 * @param requested - the locale from the app config (or null when none is set).
 * @param warn - where the warning goes; console.warn in the app.
 */
export function resolveLocale(
  requested: string | null | undefined,
  warn: (message: string) => void = (message) => console.warn(message),
): SupportedLocale {
  const match = supportedLocaleOf(requested);
  if (match) return match;
  warn(`[i18n] unsupported locale "${requested ?? ''}", falling back to ${FALLBACK_LOCALE}`);
  return FALLBACK_LOCALE;
}

/** Weeks start on Monday everywhere we operate except Canada, where calendars start on Sunday. */
export function weekStartsOn(locale: SupportedLocale): WeekStart {
  return locale === 'en-CA' ? 0 : 1;
}
