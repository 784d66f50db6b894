import { generatePath } from 'react-router-dom';
import { RESULTS_EXPIRED_PATH, resultPagePath } from '@contract/api/result-paths';

/**
 * Every route string of the portal (docs/rules/shell.md#routes) and the href builders that go with them.
 * Patterns are relative: routes.tsx mounts them at the top level and again under /iframe.
 */
export const EMBEDDED_PREFIX = '/iframe';

/** /appointments/{bookingKey}/confirmed: the appointment page shows the booking's confirmation. */
export const CONFIRMED_SEGMENT = 'confirmed';

export const ROUTE = {
  bookingHome: '',
  appointment: 'appointments/:bookingKey/*',
  appointmentPending: 'appointments/pending/:bookingKey',
  appointmentKiosk: 'appointments/:bookingKey/kiosk',
  appointmentResult: 'appointments/:bookingKey/result',
  appointmentResultPatient: 'appointments/:bookingKey/result/patient',
  appointmentAlias: 'a/:bookingKey/*',
  /** A contact's page of results shared with them (the share link: /results/shared#<token>). */
  sharedResults: 'results/shared',
  bookingRequest: 'booking-requests/:bookingKey/*',
  bookingRequestAlias: 'br/:bookingKey/*',
  clinicAppointment: ':clinicPath/appointments/:bookingKey/*',
  clinicAppointmentPending: ':clinicPath/appointments/pending/:bookingKey',
  clinicBookingRequest: ':clinicPath/booking-requests/:bookingKey/*',
  checkIn: 'check-in',
  kiosk: 'kiosk',
  questionnaires: 'questionnaires/*',
  questionnairesAlias: 'q/*',
  authentication: 'authentication',
  deny: 'deny',
  imageViewerAccess: 'image-viewer-access',
  referrerAccess: 'referrer-access',
  referrerQuickReport: 'referrer/quick-report',
  referrerReportFeedback: 'referrer/report-feedback',
  referrerReportFeedbackFaq: 'referrer/report-feedback/faq',
  /** A signed-in staff member's start page: the tools their roles allow (shell/staff-tools.ts). */
  staffHome: 'staff',
  /** Staff read referrers' report feedback and its summary. */
  staffReferrerFeedback: 'staff/referrer-feedback',
  previewEmail: 'preview-email',
  /** Staff work the callback queue (docs/rules/callbacks.md#the-staff-queue). */
  staffCallbacks: 'staff/callbacks',
  staffBookingRequests: 'staff/booking-requests',
  /** Radiographers judge held screenings (docs/rules/screening-review.md#the-staff-queue). */
  staffScreeningReviews: 'staff/screening-reviews',
  /** The front desk's confirmation list: a clinic's day with the reminders' answers (docs/rules/staff-appointments.md). */
  staffAppointments: 'staff/appointments',
  staffKiosks: 'staff/kiosks',
  /** Staff read a booking's consent forms and the signatures drawn at the kiosk. */
  staffConsents: 'staff/appointments/:bookingKey/consents',
  /** The demo provider's stand-in for a PACS image viewer; query study and token (a signed demo viewer link). */
  demoViewer: 'demo-viewer',
  iframeTest: 'iframe-test',
  about: 'about',
  contact: 'contact',
  /** A patient asks the call centre to phone them back; query exam (docs/rules/callbacks.md#the-patients-page). */
  callback: 'callback',
  terms: 'terms',
  privacy: 'privacy',
  advancedBooking: 'advanced-booking/*',
  /** A mail's footer link: /unsubscribe?token=… (src-contract/api/unsubscribe.ts UNSUBSCRIBE_PAGE_PATH). */
  unsubscribe: 'unsubscribe',
  /** A reminder mail's answer buttons: /appointment-reply?token=…&answer=confirm|cancel (src-contract/api/appointment-reply.ts). */
  appointmentReply: 'appointment-reply',
  /** A waitlist offer mail's link: /waitlist-offer?token=… (src-contract/api/waitlist.ts). */
  waitlistOffer: 'waitlist-offer',
  /** Only under /iframe: the default embedded page. */
  selectRegion: 'select-region',
} as const;

/** A query's values; an unset, empty or false one is left out. */
export type HrefQuery = Record<string, string | boolean | undefined>;

/**
 * The address of a ROUTE pattern: its parameters encoded, a trailing `/*` dropped, then the
 * query in the order given. Every builder below is one, so an address follows its route.
 */
export function hrefOf(pattern: string, params: Record<string, string> = {}, query: HrefQuery = {}): string {
  const search = Object.entries(query)
    .filter((entry): entry is [string, string | true] => entry[1] !== undefined && entry[1] !== '' && entry[1] !== false)
    .map(([name, value]) => `${name}=${encodeURIComponent(value === true ? 'true' : value)}`)
    .join('&');
  const path = generatePath(`/${pattern}`, params);
  return search === '' ? path : `${path}?${search}`;
}

export const paths = {
  /** The referrer's report-quality feedback FAQ (linked from the feedback page). */
  referrerReportFeedbackFaq: () => hrefOf(ROUTE.referrerReportFeedbackFaq),
  home: () => hrefOf(ROUTE.bookingHome),
  kioskHome: () => hrefOf(ROUTE.kiosk, {}, { kioskMode: true }),
  advancedBooking: () => hrefOf(ROUTE.advancedBooking),
  about: () => hrefOf(ROUTE.about),
  contact: () => hrefOf(ROUTE.contact),
  terms: () => hrefOf(ROUTE.terms),
  privacy: () => hrefOf(ROUTE.privacy),
  questionnaires: () => hrefOf(ROUTE.questionnaires),
  iframeTest: () => hrefOf(ROUTE.iframeTest),
  selectRegion: () => `${EMBEDDED_PREFIX}${hrefOf(ROUTE.selectRegion)}`,
  deny: () => hrefOf(ROUTE.deny),
  /** The deny page for an expired results, image or share link. */
  resultsExpired: () => RESULTS_EXPIRED_PATH,
  staffKiosks: () => hrefOf(ROUTE.staffKiosks),
  /** The call-back request page, with the exam the patient was booking (docs/rules/callbacks.md#the-patients-page). */
  callback: (exam?: string) => hrefOf(ROUTE.callback, {}, { exam }),
  /** The appointment page. */
  appointment: (bookingKey: string) => hrefOf(ROUTE.appointment, { bookingKey }),
  /** The booking's confirmation (the appointment route's `confirmed` child, docs/rules/booking.md#confirmation). */
  appointmentConfirmed: (bookingKey: string) => hrefOf(ROUTE.appointment, { bookingKey, '*': CONFIRMED_SEGMENT }),
  /** A booking request's page (the chat assistant links it once the request is sent). */
  bookingRequest: (bookingKey: string) => hrefOf(ROUTE.bookingRequest, { bookingKey }),
  staffConsents: (bookingKey: string) => hrefOf(ROUTE.staffConsents, { bookingKey }),
  /** /authentication with its query, always in this order; empty values are left out. */
  authentication: (
    query: {
      returnUrl?: string;
      bookingKey?: string;
      type?: string;
      shared?: boolean;
      staffBooking?: boolean;
      dateOfBirth?: string;
      otpType?: string;
    } = {},
  ) => {
    const { returnUrl, bookingKey, type, shared, staffBooking, dateOfBirth, otpType } = query;
    return hrefOf(ROUTE.authentication, {}, { returnUrl, bookingKey, type, shared, staffBooking, dateOfBirth, otpType });
  },
  /** An appointment's result page (/result: from the results e-mail; /result/patient: the patient portal link). */
  result: resultPagePath,
  /** Results shared with a contact (src-contract/api/result-shares.ts SHARED_RESULTS_PATH; the token is in the fragment). */
  sharedResults: () => '/results/shared',
  /** The same page inside the embedded layout: /about -> /iframe/about, / -> /iframe. */
  embedded: (path: string) => (isEmbeddedPath(path) ? path : path === '/' ? EMBEDDED_PREFIX : `${EMBEDDED_PREFIX}${path}`),
  /** A portal path in the layout of the page at `currentUrl`: under /iframe when that page is embedded. */
  inLayoutOf: (currentUrl: string, path: string) => (isEmbeddedPath(currentUrl) ? paths.embedded(path) : path),
};

/** True for /iframe and everything under it. */
export function isEmbeddedPath(path: string): boolean {
  return path === EMBEDDED_PREFIX || path.startsWith(`${EMBEDDED_PREFIX}/`) || path.startsWith(`${EMBEDDED_PREFIX}?`);
}
