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
  /** Only under /iframe: the default embedded page. */
  selectRegion: 'select-region',
} as const;

export const paths = {
  /** The referrer's report-quality feedback FAQ (linked from the feedback page). */
  referrerReportFeedbackFaq: () => '/referrer/report-feedback/faq',
  home: () => '/',
  kioskHome: () => '/kiosk?kioskMode=true',
  advancedBooking: () => '/advanced-booking',
  about: () => '/about',
  contact: () => '/contact',
  terms: () => '/terms',
  privacy: () => '/privacy',
  questionnaires: () => '/questionnaires',
  iframeTest: () => '/iframe-test',
  selectRegion: () => `${EMBEDDED_PREFIX}/select-region`,
  deny: () => '/deny',
  /** The deny page for an expired results, image or share link. */
  resultsExpired: () => RESULTS_EXPIRED_PATH,
  staffKiosks: () => '/staff/kiosks',
  /** The appointment page. */
  appointment: (bookingKey: string) => `/appointments/${encodeURIComponent(bookingKey)}`,
  /** The booking's confirmation (the appointment route's `confirmed` child, docs/rules/booking.md#confirmation). */
  appointmentConfirmed: (bookingKey: string) => `/appointments/${encodeURIComponent(bookingKey)}/${CONFIRMED_SEGMENT}`,
  /** A booking request's page (the chat assistant links it once the request is sent). */
  bookingRequest: (bookingKey: string) => `/booking-requests/${encodeURIComponent(bookingKey)}`,
  staffConsents: (bookingKey: string) => `/staff/appointments/${encodeURIComponent(bookingKey)}/consents`,
  /** /authentication with its query; empty values are left out. */
  authentication: (query?: {
    returnUrl?: string;
    bookingKey?: string;
    type?: string;
    shared?: boolean;
    staffBooking?: boolean;
    dateOfBirth?: string;
    otpType?: string;
  }) => {
    const entries: [string, string][] = [];
    if (query?.returnUrl) entries.push(['returnUrl', query.returnUrl]);
    if (query?.bookingKey) entries.push(['bookingKey', query.bookingKey]);
    if (query?.type) entries.push(['type', query.type]);
    if (query?.shared) entries.push(['shared', 'true']);
    if (query?.staffBooking) entries.push(['staffBooking', 'true']);
    if (query?.dateOfBirth) entries.push(['dateOfBirth', query.dateOfBirth]);
    if (query?.otpType) entries.push(['otpType', query.otpType]);
    const search = entries.map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join('&');
    return search ? `/authentication?${search}` : '/authentication';
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
