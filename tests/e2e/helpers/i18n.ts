import { readFileSync } from 'node:fs';
import { join } from 'node:path';

type Catalogue = { [key: string]: string | Catalogue };

const readEnglish = (file: string): Catalogue =>
  JSON.parse(readFileSync(join(process.cwd(), 'src-web', 'i18n', 'locales', 'en', file), 'utf8'));

const english: Catalogue = readEnglish('translation.json');
/** The self-service pages' catalogue, loaded with those pages (src-web/i18n/self-service-texts.ts). */
const selfService: Catalogue = readEnglish('self-service.json');
/** The staff sign-in pages' catalogue (src-web/i18n/staff-texts.ts). */
const staff: Catalogue = readEnglish('staff.json');
/** The patient sign-in page's catalogue (src-web/features/patient-access/sign-in-texts.ts). */
const signIn: Catalogue = readEnglish('sign-in.json');
/** The small pages' catalogue (src-web/i18n/page-texts.ts). */
const pages: Catalogue = readEnglish('pages.json');
/** The documents widget and viewer (src-web/features/attachments/attachments-texts.ts). */
const attachments: Catalogue = readEnglish('attachments.json');
/** The kiosk check-in pages (src-web/i18n/kiosk-texts.ts). */
const kiosk: Catalogue = readEnglish('kiosk.json');
/** The staff kiosk page (src-web/features/staff-kiosks/staff-kiosks-texts.ts). */
const staffKiosks: Catalogue = readEnglish('staff-kiosks.json');
/** The patient result page (src-web/i18n/results-texts.ts). */
const results: Catalogue = readEnglish('results.json');
/** The share dialog (src-web/features/result-shares/, result-sharing.json). */
const resultSharing: Catalogue = readEnglish('result-sharing.json');
/** The referrer's quick report (src-web/features/quick-report/, quick-report.json). */
const quickReport: Catalogue = readEnglish('quick-report.json');
/** The referrer's report list (src-web/i18n/referrer-access-texts.ts). */
const referrerAccess: Catalogue = readEnglish('referrer-access.json');
/** Scanning a booking code at the kiosk (src-web/i18n/kiosk-scan-texts.ts). */
const kioskScan: Catalogue = readEnglish('kiosk-scan.json');
/** The booking code on the confirmation and appointment pages (booking-code.json). */
const bookingCode: Catalogue = readEnglish('booking-code.json');
/** The booking steps after the exam choice (src-web/i18n/booking-steps-texts.ts). */
const bookingSteps: Catalogue = readEnglish('booking-steps.json');
/** The questionnaires' dialog (src-web/i18n/questionnaire-texts.ts). */
const questionnaires: Catalogue = readEnglish('questionnaires.json');
/** The callback request page and the staff callback queue (callback-texts.ts, staff-callbacks-texts.ts). */
const callback: Catalogue = readEnglish('callback.json');
const staffCallbacks: Catalogue = readEnglish('staff-callbacks.json');
/** The staff booking-request queue (staff-booking-requests-texts.ts). */
const staffBookingRequests: Catalogue = readEnglish('staff-booking-requests.json');
/** The screening review queue (staff-screening-reviews-texts.ts). */
const staffScreeningReviews: Catalogue = readEnglish('staff-screening-reviews.json');
/** The front desk's confirmation list (staff-appointments-texts.ts). */
const staffAppointments: Catalogue = readEnglish('staff-appointments.json');
/** The chat assistant's panel (src-web/i18n/chat-texts.ts). */
const chat: Catalogue = readEnglish('chat.json');
/** The analytics consent banner (src-web/i18n/consent-texts.ts). */
const consent: Catalogue = readEnglish('consent.json');

function lookUp(catalogue: Catalogue, key: string): string | Catalogue | undefined {
  let node: string | Catalogue | undefined = catalogue[key];
  if (node === undefined) {
    node = catalogue;
    for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  }
  return node;
}

function lookUpText(key: string): string | Catalogue | undefined {
  const found = lookUp(english, key);
  if (typeof found === 'string') return found;
  for (const catalogue of [
    selfService,
    staff,
    signIn,
    pages,
    attachments,
    kiosk,
    staffKiosks,
    results,
    resultSharing,
    quickReport,
    referrerAccess,
    kioskScan,
    bookingCode,
    bookingSteps,
    questionnaires,
    callback,
    staffCallbacks,
    staffBookingRequests,
    staffScreeningReviews,
    staffAppointments,
    chat,
    consent,
  ]) {
    const text = lookUp(catalogue, key);
    if (typeof text === 'string') return text;
  }
  return undefined;
}

const plural = new Intl.PluralRules('en');

/**
 * The English text for a translation key, read from the web app's own catalogue so the
 * journeys follow the wording instead of duplicating it. Interpolations are filled from `values`;
 * with a numeric `count` the plural form is chosen as i18next does (`key_one`, else the key itself).
 */
export function t(key: string, values: Record<string, string | number> = {}): string {
  const form = typeof values.count === 'number' ? lookUpText(`${key}_${plural.select(values.count)}`) : undefined;
  const node = typeof form === 'string' ? form : lookUpText(key);
  if (typeof node !== 'string') throw new Error(`No English text for translation key '${key}'`);
  return node.replace(/{{\s*(\w+)\s*}}/g, (_, name: string) => String(values[name] ?? `{{${name}}}`));
}
