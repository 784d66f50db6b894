import type en from './locales/en/translation.json';

/**
 * Types every t() call against the English catalogue, so an unknown key or a missing
 * interpolation value is a compile error; tests/web/i18n/keys.test.ts checks the literals too.
 */
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en };
  }
}
