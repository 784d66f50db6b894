import { observer } from 'mobx-react-lite';
import { lazy, Suspense, type ComponentType } from 'react';
import { Navigate, useLocation, type RouteObject } from 'react-router-dom';
import { BookingPage } from './features/booking/booking-page';
import { paths, ROUTE } from './paths';
import { AppFrame } from './shell/app-frame';
import { LoadingOverlay } from './shell/loading-overlay';
import { RouteError } from './shell/route-error';
import { preloadSanitizer } from './components/safe-html';
import { loadPageTexts } from './i18n/page-texts';
import { PortalLayout } from './shell/shell-layout';
import { useStores } from './stores/use-stores';

/** One page (or area) of the portal; aliases and clinic-path variants share their page's id. */
export type PageId =
  | 'booking'
  | 'appointment'
  | 'result'
  | 'shared-results'
  | 'booking-request'
  | 'check-in'
  | 'kiosk'
  | 'questionnaires'
  | 'authentication'
  | 'deny'
  | 'image-viewer-access'
  | 'referrer-access'
  | 'referrer-quick-report'
  | 'referrer-report-feedback'
  | 'referrer-report-feedback-faq'
  | 'preview-email'
  | 'staff-home'
  | 'staff-kiosks'
  | 'staff-consents'
  | 'staff-referrer-feedback'
  | 'demo-viewer'
  | 'iframe-test'
  | 'about'
  | 'contact'
  | 'terms'
  | 'privacy'
  | 'advanced-booking'
  | 'select-region'
  | 'not-found';

/** Where a route is mounted: at the top level and under /iframe, or in one tree only. */
export type Mount = 'both' | 'top' | 'embedded';

export interface PortalRoute {
  page: PageId;
  /** Relative pattern from paths.ts ('' is the index). */
  path: string;
  mount: Mount;
}

export interface PortalRouteHandle {
  page: PageId;
  embedded: boolean;
}

type PageModule = () => Promise<{ Component: ComponentType }>;

function isPortalRouteHandle(handle: unknown): handle is PortalRouteHandle {
  return typeof handle === 'object' && handle !== null && 'page' in handle && typeof handle.page === 'string';
}

/** The page the deepest route match shows, or null (e.g. before a match). */
export function matchedPage(matches: readonly { route: { handle?: unknown } }[]): PageId | null {
  const handle = matches[matches.length - 1]?.route.handle;
  return isPortalRouteHandle(handle) ? handle.page : null;
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

// The booking home is the portal's front page: its first step ships in the entry chunk (about
// 4 KB gzipped) so it renders without another round trip; its later steps are lazy inside it.
const booking: PageModule = () => Promise.resolve({ Component: BookingPage });

/** The code behind each page. */
export const PAGES: Record<PageId, PageModule> = {
  booking,
  appointment: () => import('./features/appointment/appointment-page').then((m) => ({ Component: m.AppointmentPage })),
  result: () => import('./features/results/result-page').then((m) => ({ Component: m.ResultPage })),
  'shared-results': () => import('./features/shared-results/shared-results-page').then((m) => ({ Component: m.SharedResultsPage })),
  'booking-request': () => import('./features/booking-request/booking-request-page').then((m) => ({ Component: m.BookingRequestPage })),
  'check-in': () => import('./features/kiosk-check-in/check-in-page').then((m) => ({ Component: m.CheckInPage })),
  kiosk: () => import('./features/kiosk-check-in/kiosk-page').then((m) => ({ Component: m.KioskPage })),
  questionnaires: () => import('./features/questionnaires/questionnaires-page').then((m) => ({ Component: m.QuestionnairesPage })),
  authentication: () => import('./features/authentication/authentication-page').then((m) => ({ Component: m.AuthenticationPage })),
  deny: withPageTexts(() => import('./features/deny/deny-page').then((m) => ({ Component: m.DenyPage }))),
  'image-viewer-access': () =>
    import('./features/staff-access/image-viewer-access-page').then((m) => ({ Component: m.ImageViewerAccessPage })),
  'referrer-access': () => import('./features/referrer-access/referrer-access-page').then((m) => ({ Component: m.ReferrerAccessPage })),
  'referrer-quick-report': () => import('./features/quick-report/quick-report-page').then((m) => ({ Component: m.QuickReportPage })),
  'referrer-report-feedback': () =>
    import('./features/report-feedback/report-feedback-page').then((m) => ({ Component: m.ReportFeedbackPage })),
  'referrer-report-feedback-faq': withSanitizer(() =>
    import('./features/report-feedback/report-feedback-faq-page').then((m) => ({ Component: m.ReportFeedbackFaqPage })),
  ),
  'preview-email': () => import('./features/preview-email/preview-email-page').then((m) => ({ Component: m.PreviewEmailPage })),
  'staff-home': () => import('./features/staff-home/staff-home-page').then((m) => ({ Component: m.StaffHomePage })),
  'staff-kiosks': () => import('./features/staff-kiosks/staff-kiosks-page').then((m) => ({ Component: m.StaffKiosksPage })),
  'staff-consents': () => import('./features/staff-consents/staff-consents-page').then((m) => ({ Component: m.StaffConsentsPage })),
  'staff-referrer-feedback': () =>
    import('./features/report-feedback/staff-feedback-page').then((m) => ({ Component: m.StaffFeedbackPage })),
  'demo-viewer': () => import('./features/demo-viewer/demo-viewer-page').then((m) => ({ Component: m.DemoViewerPage })),
  'iframe-test': withPageTexts(() => import('./features/iframe-test/iframe-test-page').then((m) => ({ Component: m.IframeTestPage }))),
  about: withPageTexts(withSanitizer(() => import('./features/about/about-page').then((m) => ({ Component: m.AboutPage })))),
  contact: withPageTexts(withSanitizer(() => import('./features/contact/contact-page').then((m) => ({ Component: m.ContactPage })))),
  terms: withPageTexts(withSanitizer(() => import('./features/terms/terms-page').then((m) => ({ Component: m.TermsPage })))),
  privacy: withPageTexts(() => import('./features/privacy/privacy-page').then((m) => ({ Component: m.PrivacyPage }))),
  'advanced-booking': booking,
  'select-region': withPageTexts(() =>
    import('./features/select-region/select-region-page').then((m) => ({ Component: m.SelectRegionPage })),
  ),
  'not-found': withPageTexts(() => import('./features/not-found/not-found-page').then((m) => ({ Component: m.NotFoundPage }))),
};

/**
 * The route table (docs/rules/shell.md#routes), each route registered once. buildRoutes() mounts it
 * twice: at the top level in the portal layout and under /iframe in the embedded layout.
 */
export const ROUTE_TABLE: readonly PortalRoute[] = [
  // Under /iframe the empty path is the redirect to select-region, the embedded start page.
  { page: 'booking', path: ROUTE.bookingHome, mount: 'top' },
  { page: 'appointment', path: ROUTE.appointment, mount: 'both' },
  { page: 'appointment', path: ROUTE.appointmentPending, mount: 'both' },
  { page: 'appointment', path: ROUTE.appointmentKiosk, mount: 'both' },
  { page: 'result', path: ROUTE.appointmentResult, mount: 'both' },
  { page: 'result', path: ROUTE.appointmentResultPatient, mount: 'both' },
  { page: 'shared-results', path: ROUTE.sharedResults, mount: 'both' },
  { page: 'appointment', path: ROUTE.appointmentAlias, mount: 'both' },
  { page: 'appointment', path: ROUTE.clinicAppointment, mount: 'both' },
  { page: 'appointment', path: ROUTE.clinicAppointmentPending, mount: 'both' },
  { page: 'booking-request', path: ROUTE.bookingRequest, mount: 'both' },
  { page: 'booking-request', path: ROUTE.bookingRequestAlias, mount: 'both' },
  { page: 'booking-request', path: ROUTE.clinicBookingRequest, mount: 'both' },
  { page: 'check-in', path: ROUTE.checkIn, mount: 'both' },
  { page: 'kiosk', path: ROUTE.kiosk, mount: 'both' },
  { page: 'questionnaires', path: ROUTE.questionnaires, mount: 'both' },
  { page: 'questionnaires', path: ROUTE.questionnairesAlias, mount: 'both' },
  { page: 'authentication', path: ROUTE.authentication, mount: 'both' },
  { page: 'deny', path: ROUTE.deny, mount: 'both' },
  { page: 'image-viewer-access', path: ROUTE.imageViewerAccess, mount: 'both' },
  { page: 'referrer-access', path: ROUTE.referrerAccess, mount: 'both' },
  { page: 'referrer-quick-report', path: ROUTE.referrerQuickReport, mount: 'both' },
  { page: 'referrer-report-feedback', path: ROUTE.referrerReportFeedback, mount: 'both' },
  { page: 'referrer-report-feedback-faq', path: ROUTE.referrerReportFeedbackFaq, mount: 'both' },
  { page: 'preview-email', path: ROUTE.previewEmail, mount: 'both' },
  { page: 'staff-home', path: ROUTE.staffHome, mount: 'top' },
  { page: 'staff-kiosks', path: ROUTE.staffKiosks, mount: 'both' },
  { page: 'staff-consents', path: ROUTE.staffConsents, mount: 'top' },
  { page: 'staff-referrer-feedback', path: ROUTE.staffReferrerFeedback, mount: 'top' },
  { page: 'demo-viewer', path: ROUTE.demoViewer, mount: 'both' },
  { page: 'iframe-test', path: ROUTE.iframeTest, mount: 'both' },
  { page: 'about', path: ROUTE.about, mount: 'both' },
  { page: 'contact', path: ROUTE.contact, mount: 'both' },
  { page: 'terms', path: ROUTE.terms, mount: 'both' },
  { page: 'privacy', path: ROUTE.privacy, mount: 'both' },
  { page: 'advanced-booking', path: ROUTE.advancedBooking, mount: 'both' },
  { page: 'select-region', path: ROUTE.selectRegion, mount: 'embedded' },
];

type Tree = 'top' | 'embedded';

function pageRoute(entry: PortalRoute, tree: Tree): RouteObject {
  const handle: PortalRouteHandle = { page: entry.page, embedded: tree === 'embedded' };
  const common = { id: `${tree}:${entry.path || 'index'}`, lazy: PAGES[entry.page], handle, ErrorBoundary: RouteError };
  return entry.path === '' ? { ...common, index: true } : { ...common, path: entry.path };
}

function notFoundRoute(tree: Tree): RouteObject {
  const handle: PortalRouteHandle = { page: 'not-found', embedded: tree === 'embedded' };
  return { id: `${tree}:*`, path: '*', lazy: PAGES['not-found'], handle, ErrorBoundary: RouteError };
}

/** /iframe (with its query, so ?link= still works) goes to the default embedded page. */
function EmbeddedIndexRedirect() {
  const { search } = useLocation();
  return <Navigate to={`${paths.selectRegion()}${search}`} replace />;
}

// The kiosk's own frame is a chunk of its own: only kiosks download it.
const KioskLayout = lazy(() => import('./features/kiosk-shell/public').then((module) => ({ default: module.KioskLayout })));

// The embedded layout is a chunk of its own too: the website's pages never download it.
const EmbeddedLayout = lazy(() => import('./shell/embedded-layout').then((module) => ({ default: module.EmbeddedLayout })));

/** The /iframe layout (docs/embedding.md): the page alone, the provider's page around it is the chrome. */
function EmbeddedSiteLayout() {
  return (
    <Suspense fallback={<LoadingOverlay />}>
      <EmbeddedLayout />
    </Suspense>
  );
}

/** The top-level layout: the kiosk frame in kiosk mode (docs/rules/kiosk.md#the-kiosk-shell), else the website's. */
const SiteLayout = observer(function SiteLayout() {
  const { ui } = useStores();
  if (!ui.kiosk) return <PortalLayout />;
  return (
    <Suspense fallback={<LoadingOverlay />}>
      <KioskLayout />
    </Suspense>
  );
});

/** The router's route objects: the table mounted at the top level and under /iframe. */
export function buildRoutes(): RouteObject[] {
  const inTree = (tree: Tree) => ROUTE_TABLE.filter((entry) => entry.mount === 'both' || entry.mount === tree);
  return [
    {
      id: 'root',
      Component: AppFrame,
      HydrateFallback: LoadingOverlay,
      ErrorBoundary: RouteError,
      children: [
        {
          id: 'embedded',
          path: 'iframe',
          Component: EmbeddedSiteLayout,
          ErrorBoundary: RouteError,
          children: [
            { id: 'embedded:index', index: true, Component: EmbeddedIndexRedirect },
            ...inTree('embedded').map((entry) => pageRoute(entry, 'embedded')),
            notFoundRoute('embedded'),
          ],
        },
        {
          id: 'portal',
          Component: SiteLayout,
          ErrorBoundary: RouteError,
          children: [...inTree('top').map((entry) => pageRoute(entry, 'top')), notFoundRoute('top')],
        },
      ],
    },
  ];
}
