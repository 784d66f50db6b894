import { observer } from 'mobx-react-lite';
import { lazy, Suspense } from 'react';
import { Navigate, useLocation, type RouteObject } from 'react-router-dom';
import { NOT_FOUND_PAGE, PAGE_TABLE, type PageId, type PageModule } from './pages';
import { paths } from './paths';
import { AppFrame } from './shell/app-frame';
import { LoadingOverlay } from './shell/loading-overlay';
import { RouteError } from './shell/route-error';
import { PortalLayout } from './shell/shell-layout';
import { CHAT_LAUNCHER_DELAY_MS } from './features/chat-assistant/chat-constants';
import { AfterPageLoad } from './components/after-page-load';
import { useStores } from './stores/use-stores';

export type { PageId } from './pages';

export interface PortalRouteHandle {
  page: PageId;
  embedded: boolean;
}

function isPortalRouteHandle(handle: unknown): handle is PortalRouteHandle {
  return typeof handle === 'object' && handle !== null && 'page' in handle && typeof handle.page === 'string';
}

/** The page the deepest route match shows, or null (e.g. before a match). */
export function matchedPage(matches: readonly { route: { handle?: unknown } }[]): PageId | null {
  const handle = matches[matches.length - 1]?.route.handle;
  return isPortalRouteHandle(handle) ? handle.page : null;
}

type Tree = 'top' | 'embedded';

/** One route of a page row, in one tree (docs/rules/shell.md#routes). */
function pageRoute(page: PageId, load: PageModule, pattern: string, tree: Tree): RouteObject {
  const handle: PortalRouteHandle = { page, embedded: tree === 'embedded' };
  const common = { id: `${tree}:${pattern || 'index'}`, lazy: load, handle, ErrorBoundary: RouteError };
  return pattern === '' ? { ...common, index: true } : { ...common, path: pattern };
}

/** The page table's routes in one tree, each pattern once, then not-found for anything else. */
function treeRoutes(tree: Tree): RouteObject[] {
  const rows = PAGE_TABLE.filter((row) => row.mount === 'both' || row.mount === tree);
  return [
    ...rows.flatMap((row) => row.patterns.map((pattern) => pageRoute(row.id, row.load, pattern, tree))),
    pageRoute(NOT_FOUND_PAGE.id, NOT_FOUND_PAGE.load, '*', tree),
  ];
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

/** The router's route objects: the page table mounted at the top level and under /iframe. */
export function buildRoutes(): RouteObject[] {
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
          children: [{ id: 'embedded:index', index: true, Component: EmbeddedIndexRedirect }, ...treeRoutes('embedded')],
        },
        {
          id: 'portal',
          Component: SiteLayout,
          ErrorBoundary: RouteError,
          children: treeRoutes('top'),
        },
      ],
    },
  ];
}
