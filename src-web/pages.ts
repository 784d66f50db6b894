import type { ComponentType } from 'react';
import { BookingPage } from './features/booking/booking-page';
import { preloadSanitizer } from './components/safe-html';
import { loadPageTexts } from './i18n/page-texts';
import { ROUTE } from './paths';
import type { StaffPageId } from './staff-pages';
import type { SecondaryPageId } from './secondary-pages';

/**
 * The page table (docs/web.md#pages): one row a page, with the route patterns it answers
 * (its own first, then aliases and clinic-path variants), where it is mounted and the code behind
 * it. routes.tsx builds the router from it; PageId is read off it, so a page exists once.
 */

/** Where a page is mounted: at the top level and under /iframe, or in one tree only. */
export type Mount = 'both' | 'top' | 'embedded';

export type PageModule = () => Promise<{ Component: ComponentType }>;

interface PageRow {
  id: string;
  /** Relative patterns from paths.ts ROUTE ('' is the index). */
  patterns: readonly string[];
  mount: Mount;
  load: PageModule;
}

// Every page is its own chunk, so the first screen downloads only the page it shows.

/** Pages that show configured HTML load the sanitiser with their code, so nothing pops in later. */
function withSanitizer(load: PageModule): PageModule {
  return async () => (await Promise.all([load(), preloadSanitizer()]))[0];
}

/** The small pages' texts (pages.json) load with their code, never with the booking home. */
function withPageTexts(load: PageModule): PageModule {
  return async () => (await Promise.all([load(), loadPageTexts()]))[0];
}

/** A staff, referrer or demo-viewer page: through staff-pages.ts, so the entry chunk lists none of their files. */
function staffPage(id: StaffPageId): PageModule {
  return async () => ({ Component: await (await import('./staff-pages')).STAFF_PAGES[id]() });
}

/** A page off the booking path (information, a mail's link): through secondary-pages.ts, so the entry chunk lists none of their files. */
function secondaryPage(id: SecondaryPageId): PageModule {
  return async () => ({ Component: await (await import('./secondary-pages')).SECONDARY_PAGES[id]() });
}

// The booking home is the portal's front page: its first step ships in the entry chunk (about
// 4 KB gzipped) so it renders without another round trip; its later steps are lazy inside it.
const booking: PageModule = () => Promise.resolve({ Component: BookingPage });

export const PAGE_TABLE = [
  // Under /iframe the empty path is the redirect to select-region, the embedded start page.
  { id: 'booking', patterns: [ROUTE.bookingHome], mount: 'top', load: booking },
  { id: 'advanced-booking', patterns: [ROUTE.advancedBooking], mount: 'both', load: booking },
  {
    id: 'appointment',
    patterns: [
      ROUTE.appointment,
      ROUTE.appointmentPending,
      ROUTE.appointmentKiosk,
      ROUTE.appointmentAlias,
      ROUTE.clinicAppointment,
      ROUTE.clinicAppointmentPending,
    ],
    mount: 'both',
    load: () => import('./features/appointments/appointment-page').then((m) => ({ Component: m.AppointmentPage })),
  },
  {
    id: 'result',
    patterns: [ROUTE.appointmentResult, ROUTE.appointmentResultPatient],
    mount: 'both',
    load: () => import('./features/results/result-page').then((m) => ({ Component: m.ResultPage })),
  },
  {
    id: 'shared-results',
    patterns: [ROUTE.sharedResults],
    mount: 'both',
    load: secondaryPage('shared-results'),
  },
  {
    id: 'booking-request',
    patterns: [ROUTE.bookingRequest, ROUTE.bookingRequestAlias, ROUTE.clinicBookingRequest],
    mount: 'both',
    load: secondaryPage('booking-request'),
  },
  {
    id: 'check-in',
    patterns: [ROUTE.checkIn],
    mount: 'both',
    load: () => import('./features/kiosk-check-in/check-in-page').then((m) => ({ Component: m.CheckInPage })),
  },
  {
    id: 'kiosk',
    patterns: [ROUTE.kiosk],
    mount: 'both',
    load: () => import('./features/kiosk-check-in/kiosk-page').then((m) => ({ Component: m.KioskPage })),
  },
  {
    id: 'questionnaires',
    patterns: [ROUTE.questionnaires, ROUTE.questionnairesAlias],
    mount: 'both',
    load: () => import('./features/questionnaires/questionnaires-page').then((m) => ({ Component: m.QuestionnairesPage })),
  },
  {
    id: 'authentication',
    patterns: [ROUTE.authentication],
    mount: 'both',
    load: () => import('./features/patient-access/authentication-page').then((m) => ({ Component: m.AuthenticationPage })),
  },
  {
    id: 'deny',
    patterns: [ROUTE.deny],
    mount: 'both',
    load: withPageTexts(secondaryPage('deny')),
  },
  { id: 'image-viewer-access', patterns: [ROUTE.imageViewerAccess], mount: 'both', load: staffPage('image-viewer-access') },
  { id: 'referrer-access', patterns: [ROUTE.referrerAccess], mount: 'both', load: staffPage('referrer-access') },
  { id: 'referrer-quick-report', patterns: [ROUTE.referrerQuickReport], mount: 'both', load: staffPage('referrer-quick-report') },
  {
    id: 'referrer-report-feedback',
    patterns: [ROUTE.referrerReportFeedback],
    mount: 'both',
    load: staffPage('referrer-report-feedback'),
  },
  {
    id: 'referrer-report-feedback-faq',
    patterns: [ROUTE.referrerReportFeedbackFaq],
    mount: 'both',
    load: withSanitizer(staffPage('referrer-report-feedback-faq')),
  },
  { id: 'preview-email', patterns: [ROUTE.previewEmail], mount: 'both', load: staffPage('preview-email') },
  // Staff do not work inside a provider's frame, except the kiosk administrators' page.
  { id: 'staff-home', patterns: [ROUTE.staffHome], mount: 'top', load: staffPage('staff-home') },
  { id: 'staff-kiosks', patterns: [ROUTE.staffKiosks], mount: 'both', load: staffPage('staff-kiosks') },
  { id: 'staff-consents', patterns: [ROUTE.staffConsents], mount: 'top', load: staffPage('staff-consents') },
  { id: 'staff-referrer-feedback', patterns: [ROUTE.staffReferrerFeedback], mount: 'top', load: staffPage('staff-referrer-feedback') },
  // The staff work queues, each page named by its address (staff/callbacks is staff-callbacks): one
  // line each instead of four keeps the booking home's entry chunk inside its budget (docs/web.md#budgets).
  ...(['staffCallbacks', 'staffBookingRequests', 'staffScreeningReviews', 'staffAppointments'] as const).map((route) => {
    const id = ROUTE[route].replace('/', '-') as StaffPageId;
    return { id, patterns: [ROUTE[route]], mount: 'top' as const, load: staffPage(id) };
  }),
  {
    id: 'callback',
    patterns: [ROUTE.callback],
    mount: 'both',
    load: secondaryPage('callback'),
  },
  { id: 'demo-viewer', patterns: [ROUTE.demoViewer], mount: 'both', load: staffPage('demo-viewer') },
  {
    id: 'iframe-test',
    patterns: [ROUTE.iframeTest],
    mount: 'both',
    load: withPageTexts(secondaryPage('iframe-test')),
  },
  {
    id: 'about',
    patterns: [ROUTE.about],
    mount: 'both',
    load: withPageTexts(withSanitizer(secondaryPage('about'))),
  },
  {
    id: 'contact',
    patterns: [ROUTE.contact],
    mount: 'both',
    load: withPageTexts(withSanitizer(secondaryPage('contact'))),
  },
  {
    id: 'terms',
    patterns: [ROUTE.terms],
    mount: 'both',
    load: withPageTexts(withSanitizer(secondaryPage('terms'))),
  },
  {
    id: 'privacy',
    patterns: [ROUTE.privacy],
    mount: 'both',
    load: withPageTexts(secondaryPage('privacy')),
  },
  {
    id: 'select-region',
    patterns: [ROUTE.selectRegion],
    mount: 'embedded',
    load: withPageTexts(() => import('./features/select-region/select-region-page').then((m) => ({ Component: m.SelectRegionPage }))),
  },
  {
    id: 'unsubscribe',
    patterns: [ROUTE.unsubscribe],
    mount: 'both',
    load: secondaryPage('unsubscribe'),
  },
  {
    id: 'appointment-reply',
    patterns: [ROUTE.appointmentReply],
    mount: 'top',
    load: secondaryPage('appointment-reply'),
  },
  {
    id: 'waitlist-offer',
    patterns: [ROUTE.waitlistOffer],
    mount: 'top',
    load: secondaryPage('waitlist-offer'),
  },
] as const satisfies readonly PageRow[];

/** Any path no row answers, inside each layout. */
export const NOT_FOUND_PAGE = {
  id: 'not-found',
  load: withPageTexts(secondaryPage('not-found')),
} as const;

/** One page of the portal; aliases and clinic-path variants share their page's id. */
export type PageId = (typeof PAGE_TABLE)[number]['id'] | typeof NOT_FOUND_PAGE.id;
