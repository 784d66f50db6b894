import type en from './locales/en/translation.json';
import type questionnaires from './locales/en/questionnaires.json';
import type selfService from './locales/en/self-service.json';
import type staff from './locales/en/staff.json';

/**
 * Types every t() call against the English catalogue, so an unknown key or a missing
 * interpolation value is a compile error; tests/web/i18n/keys.test.ts checks the literals too.
 */
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    // self-service.json, questionnaires.json and staff.json load with their pages (self-service-texts.ts,
    // questionnaire-texts.ts, staff-texts.ts); typed as one catalogue.
    resources: { translation: typeof en & typeof selfService & typeof questionnaires & typeof staff };
  }
}
