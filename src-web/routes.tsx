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
import { CHAT_LAUNCHER_DELAY_MS } from './features/chat-assistant/chat-constants';
import { AfterPageLoad } from './components/after-page-load';
import { useStores } from './stores/use-stores';
import type { StaffPageId } from './staff-pages';

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
  | 'staff-callbacks'
  | 'staff-booking-requests'
  | 'callback'
  | 'demo-viewer'
  | 'iframe-test'
  | 'about'
  | 'contact'
  | 'terms'
  | 'privacy'
  | 'advanced-booking'
  | 'select-region'
  | 'unsubscribe'
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

/** A staff, referrer or demo-viewer page: through staff-pages.ts, so the entry chunk lists none of their files. */
function staffPage(id: StaffPageId): PageModule {
  return async () => ({ Component: await (await import('./staff-pages')).STAFF_PAGES[id]() });
}

// The booking home is the portal's front page: its first step ships in the entry chunk (about
// 4 KB gzipped) so it renders without another round trip; its later steps are lazy inside it.
const booking: PageModule = () => Promise.resolve({ Component: BookingPage });

/** The code behind each page. */
export const PAGES: Record<PageId, PageModule> = {
  booking,
  appointment: () => import('./features/appointments/appointment-page').then((m) => ({ Component: m.AppointmentPage })),
  result: () => import('./features/results/result-page').then((m) => ({ Component: m.ResultPage })),
  'shared-results': () => import('./features/shared-results/shared-results-page').then((m) => ({ Component: m.SharedResultsPage })),
  'booking-request': () => import('./features/booking-requests/booking-request-page').then((m) => ({ Component: m.BookingRequestPage })),
  'check-in': () => import('./features/kiosk-check-in/check-in-page').then((m) => ({ Component: m.CheckInPage })),
  kiosk: () => import('./features/kiosk-check-in/kiosk-page').then((m) => ({ Component: m.KioskPage })),
  questionnaires: () => import('./features/questionnaires/questionnaires-page').then((m) => ({ Component: m.QuestionnairesPage })),
  authentication: () => import('./features/authentication/authentication-page').then((m) => ({ Component: m.AuthenticationPage })),
  deny: withPageTexts(() => import('./features/deny/deny-page').then((m) => ({ Component: m.DenyPage }))),
  'image-viewer-access': staffPage('image-viewer-access'),
  'referrer-access': staffPage('referrer-access'),
  'referrer-quick-report': staffPage('referrer-quick-report'),
  'referrer-report-feedback': staffPage('referrer-report-feedback'),
  'referrer-report-feedback-faq': withSanitizer(staffPage('referrer-report-feedback-faq')),
  'preview-email': staffPage('preview-email'),
  'staff-home': staffPage('staff-home'),
  'staff-kiosks': staffPage('staff-kiosks'),
  'staff-consents': staffPage('staff-consents'),
  'staff-referrer-feedback': staffPage('staff-referrer-feedback'),
  'staff-callbacks': staffPage('staff-callbacks'),
  'staff-booking-requests': staffPage('staff-booking-requests'),
  callback: () => import('./features/callbacks/callback-page').then((m) => ({ Component: m.CallbackPage })),
  'demo-viewer': staffPage('demo-viewer'),
  'iframe-test': withPageTexts(() => import('./features/iframe-test/iframe-test-page').then((m) => ({ Component: m.IframeTestPage }))),
  about: withPageTexts(withSanitizer(() => import('./features/about/about-page').then((m) => ({ Component: m.AboutPage })))),
  contact: withPageTexts(withSanitizer(() => import('./features/contact/contact-page').then((m) => ({ Component: m.ContactPage })))),
  terms: withPageTexts(withSanitizer(() => import('./features/terms/terms-page').then((m) => ({ Component: m.TermsPage })))),
  privacy: withPageTexts(() => import('./features/privacy/privacy-page').then((m) => ({ Component: m.PrivacyPage }))),
  'advanced-booking': booking,
  'select-region': withPageTexts(() =>
    import('./features/select-region/select-region-page').then((m) => ({ Component: m.SelectRegionPage })),
  ),
  unsubscribe: () => import('./features/unsubscribe/unsubscribe-page').then((m) => ({ Component: m.UnsubscribePage })),
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
  { page: 'staff-callbacks', path: ROUTE.staffCallbacks, mount: 'top' },
  { page: 'staff-booking-requests', path: ROUTE.staffBookingRequests, mount: 'top' },
  { page: 'callback', path: ROUTE.callback, mount: 'both' },
  { page: 'demo-viewer', path: ROUTE.demoViewer, mount: 'both' },
  { page: 'iframe-test', path: ROUTE.iframeTest, mount: 'both' },
  { page: 'about', path: ROUTE.about, mount: 'both' },
  { page: 'contact', path: ROUTE.contact, mount: 'both' },
  { page: 'terms', path: ROUTE.terms, mount: 'both' },
  { page: 'privacy', path: ROUTE.privacy, mount: 'both' },
  { page: 'advanced-booking', path: ROUTE.advancedBooking, mount: 'both' },
  { page: 'select-region', path: ROUTE.selectRegion, mount: 'embedded' },
  { page: 'unsubscribe', path: ROUTE.unsubscribe, mount: 'both' },
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

// The chat launcher is a chunk of its own, fetched a few seconds after the page has loaded: nothing of it comes
// before the booking home is usable (docs/rules/chat.md#where-it-shows).
const ChatLauncher = lazy(() => import('./features/chat-assistant/public').then((module) => ({ default: module.ChatLauncher })));

/** The chat assistant's launcher, page-wide beside the layout (docs/rules/chat.md#where-it-shows). */
function LaterChatLauncher() {
  return (
    <AfterPageLoad delayMs={CHAT_LAUNCHER_DELAY_MS}>
      <Suspense fallback={null}>
        <ChatLauncher />
      </Suspense>
    </AfterPageLoad>
  );
}

/** The /iframe layout (docs/embedding.md): the page alone, the provider's page around it is the chrome. */
function EmbeddedSiteLayout() {
  return (
    <>
      <Suspense fallback={<LoadingOverlay />}>
        <EmbeddedLayout />
      </Suspense>
      <LaterChatLauncher />
    </>
  );
}

// The analytics consent is a chunk of its own, downloaded only where the provider turned analytics on (docs/rules/analytics.md).
const ConsentMount = lazy(() => import('./features/consent/public').then((module) => ({ default: module.ConsentMount })));

/** The top-level layout: the kiosk frame in kiosk mode (docs/rules/kiosk.md#the-kiosk-shell), else the website's. */
const SiteLayout = observer(function SiteLayout() {
  const { ui, config } = useStores();
  if (!ui.kiosk)
    return (
      <>
        {(config.app.analyticsEnabled || config.app.trackingEnabled) && (
          <Suspense fallback={null}>
            <ConsentMount />
          </Suspense>
        )}
        <PortalLayout />
        <LaterChatLauncher />
      </>
    );
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
