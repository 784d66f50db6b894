import dayjs from 'dayjs';
import type { Locale as AntdLocale } from 'antd/es/locale';
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

/** antd component texts per portal locale (antd has no en-AU/en-NZ/en-CA: en_GB and en_US are the closest). */
const ANTD_LOCALES: Record<SupportedLocale, () => Promise<{ default: AntdLocale }>> = {
  en: () => import('antd/es/locale/en_GB'),
  'en-AU': () => import('antd/es/locale/en_GB'),
  'en-NZ': () => import('antd/es/locale/en_GB'),
  'en-CA': () => import('antd/es/locale/en_US'),
  mk: () => import('antd/es/locale/mk_MK'),
};

/**
 * The name under which the portal registers its dayjs locale. It has no underscore on
 * purpose: antd's picker turns `lang.locale` into a dayjs name by splitting on '_', so a
 * name without one reaches dayjs unchanged and the picker uses our week start.
 */
export function portalDayjsLocaleName(locale: SupportedLocale): string {
  return `portal-${locale.toLowerCase()}`;
}

function withPickerLocale(base: AntdLocale, dayjsName: string): AntdLocale {
  const datePicker = base.DatePicker;
  return {
    ...base,
    DatePicker: datePicker ? { ...datePicker, lang: { ...datePicker.lang, locale: dayjsName } } : undefined,
    Calendar: datePicker ? { ...datePicker, lang: { ...datePicker.lang, locale: dayjsName } } : base.Calendar,
  };
}

/** Starts downloading a locale's date chunks early; applyDateLocale then finds them loaded. */
export function preloadDateLocale(locale: SupportedLocale): void {
  void DAYJS_LOCALES[locale]().catch(() => undefined);
  void ANTD_LOCALES[locale]().catch(() => undefined);
}

/**
 * Registers the portal's dayjs locale (the locale's data with our week start: Monday,
 * Sunday for en-CA), makes it dayjs's global locale, and returns the antd locale that
 * points its date pickers at it.
 */
export async function applyDateLocale(locale: SupportedLocale): Promise<AntdLocale> {
  const [dayjsBase, antdBase] = await Promise.all([DAYJS_LOCALES[locale](), ANTD_LOCALES[locale]()]);
  const name = portalDayjsLocaleName(locale);
  dayjs.locale({ ...dayjsBase.default, name, weekStart: weekStartsOn(locale) }, undefined, true);
  dayjs.locale(name);
  return withPickerLocale(antdBase.default, name);
}
