import dayjs from 'dayjs';
import type { SupportedLocale } from '@contract/api/config';
import { weekStartsOn } from './locale';

type DayjsLocale = ILocale;

/** dayjs's own locale data per portal locale; loaded on demand (one small chunk each). */
const DAYJS_LOCALES: Record<SupportedLocale, () => Promise<{ default: DayjsLocale }>> = {
  en: () => import('dayjs/locale/en'),
  'en-AU': () => import('dayjs/locale/en-au'),
  'en-NZ': () => import('dayjs/locale/en-nz'),
  'en-CA': () => import('dayjs/locale/en-ca'),
  mk: () => import('dayjs/locale/mk'),
};

/**
 * The name under which the portal registers its dayjs locale. It has no underscore on
 * purpose: antd's picker turns `lang.locale` into a dayjs name by splitting on '_', so a
 * name without one reaches dayjs unchanged and the picker uses our week start.
 */
export function portalDayjsLocaleName(locale: SupportedLocale): string {
  return `portal-${locale.toLowerCase()}`;
}

/**
 * Registers the portal's dayjs locale (the locale's data with our week start: Monday,
 * Sunday for en-CA) and makes it dayjs's global locale, for antd's date pickers
 * (i18n/antd-locale.ts calls it with the first antd component, off the first render's path).
 */
export async function applyDateLocale(locale: SupportedLocale): Promise<void> {
  const dayjsBase = await DAYJS_LOCALES[locale]();
  const name = portalDayjsLocaleName(locale);
  dayjs.locale({ ...dayjsBase.default, name, weekStart: weekStartsOn(locale) }, undefined, true);
  dayjs.locale(name);
}
