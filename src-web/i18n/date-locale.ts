import dayjs from 'dayjs';
import type { SupportedLocale } from '@contract/api/config';
import { weekStartsOn } from './locale';
import { LOCALE_PACKS } from './locale-packs';

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
  const dayjsBase = await LOCALE_PACKS[locale].dayjs();
  const name = portalDayjsLocaleName(locale);
  dayjs.locale({ ...dayjsBase.default, name, weekStart: weekStartsOn(locale) }, undefined, true);
  dayjs.locale(name);
}
