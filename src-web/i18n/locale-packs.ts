import type { Locale as AntdLocale } from 'antd/es/locale';
import type { SupportedLocale } from '@contract/api/config';

type Loader<T> = () => Promise<{ default: T }>;

/**
 * Each portal locale's date and antd component data, in one table so that adding a locale names
 * both: dayjs's own locale data and antd's texts (antd has no en-AU/en-NZ/en-CA: en_GB and en_US
 * are the closest). Loaded on demand, one small chunk each.
 */
export const LOCALE_PACKS: Record<SupportedLocale, { dayjs: Loader<ILocale>; antd: Loader<AntdLocale> }> = {
  en: { dayjs: () => import('dayjs/locale/en'), antd: () => import('antd/es/locale/en_GB') },
  'en-AU': { dayjs: () => import('dayjs/locale/en-au'), antd: () => import('antd/es/locale/en_GB') },
  'en-NZ': { dayjs: () => import('dayjs/locale/en-nz'), antd: () => import('antd/es/locale/en_GB') },
  'en-CA': { dayjs: () => import('dayjs/locale/en-ca'), antd: () => import('antd/es/locale/en_US') },
  mk: { dayjs: () => import('dayjs/locale/mk'), antd: () => import('antd/es/locale/mk_MK') },
};
