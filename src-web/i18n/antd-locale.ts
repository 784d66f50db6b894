import type { Locale as AntdLocale } from 'antd/es/locale';
import type { SupportedLocale } from '@contract/api/config';
import { applyDateLocale, portalDayjsLocaleName } from './date-locale';
import { LOCALE_PACKS } from './locale-packs';

function withPickerLocale(base: AntdLocale, dayjsName: string): AntdLocale {
  const datePicker = base.DatePicker;
  return {
    ...base,
    DatePicker: datePicker ? { ...datePicker, lang: { ...datePicker.lang, locale: dayjsName } } : undefined,
    Calendar: datePicker ? { ...datePicker, lang: { ...datePicker.lang, locale: dayjsName } } : base.Calendar,
  };
}

/**
 * antd's texts for a portal locale, with its date pickers pointed at the portal's dayjs locale
 * (registered here too, so weeks start as the locale says). Only antd components use dayjs and
 * these texts, so only AntdScope loads them: the first render never waits for antd.
 */
export async function loadAntdLocale(locale: SupportedLocale): Promise<AntdLocale> {
  const [base] = await Promise.all([LOCALE_PACKS[locale].antd(), applyDateLocale(locale)]);
  return withPickerLocale(base.default, portalDayjsLocaleName(locale));
}
