import { render, screen, type RenderResult } from '@testing-library/react';
import { createMemoryRouter } from 'react-router-dom';
import type { BootstrapConfig, TranslationOverlay } from '@contract/api/config';
import { createApiClient } from '../../../src-web/api/client';
import { App, type PortalRouter } from '../../../src-web/app';
import { buildRoutes } from '../../../src-web/routes';
import { routerNavigator } from '../../../src-web/start';
import type { StaffUser } from '@contract/api/staff-access';
import { RootStore } from '../../../src-web/stores/root-store';
import { SIGNED_IN_MARKER } from '../../../src-web/stores/staff-store';
import { json, startApiServer, text, type RouteHandler, type TestApiServer } from './api-server';
import { TEST_CLINICS, testConfig } from './test-config';

export interface RenderAppOptions {
  config?: BootstrapConfig;
  /** Extra or replacing API routes, by "METHOD /path". */
  routes?: Record<string, RouteHandler>;
  /** The server's translation overlay for the active locale. */
  overlay?: TranslationOverlay;
  clock?: () => Date;
  /** Viewport in CSS pixels (jsdom defaults to 1024 x 768). */
  viewport?: { width: number; height: number };
  /**
   * A staff member this browser is signed in as: the server answers GET /api/staff-access/me
   * with them, and the app finds them at start as it does for a returning staff member.
   */
  staffUser?: StaffUser;
}

export interface RenderedApp extends RenderResult {
  root: RootStore;
  router: PortalRouter;
  server: TestApiServer;
}

export const TERMS_HTML = '<h2>Using this portal</h2><p>Bookings are subject to availability.</p><script>window.pwned = true</script>';

/**
 * Renders the real app (providers, stores, router, lazy pages) at a URL, against a real
 * local HTTP server that answers the shell's API calls.
 */
export async function renderApp(url: string, options: RenderAppOptions = {}): Promise<RenderedApp> {
  const config = options.config ?? testConfig();
  const server = await startApiServer({
    'GET /api/assets/translations': (_request, response) => json(response, 200, options.overlay ?? {}),
    'GET /api/config/contact': (_request, response) => json(response, 200, { clinics: TEST_CLINICS }),
    'GET /api/config/terms': (_request, response) => text(response, 200, TERMS_HTML),
    ...(options.staffUser === undefined
      ? {}
      : { 'GET /api/staff-access/me': (_request, response) => json(response, 200, options.staffUser) }),
    ...options.routes,
  });
  if (options.staffUser !== undefined) window.localStorage.setItem(SIGNED_IN_MARKER, '1');
  if (options.viewport) {
    window.innerWidth = options.viewport.width;
    window.innerHeight = options.viewport.height;
  }
  // The browser's own location matches the router's first entry, as it does in the app
  // (kiosk mode reads ?kioskMode=true from it).
  window.history.replaceState(null, '', url);
  const root = new RootStore({ config, client: createApiClient(server.url), window, clock: options.clock });
  const router = createMemoryRouter(buildRoutes(), { initialEntries: [url] });
  root.attachNavigator(routerNavigator(router));
  await Promise.all([root.i18n.init(), root.staff.restore()]);
  const view = render(<App root={root} router={router} />);
  return { ...view, root, router, server };
}

/** The app at a URL once its page is there: the page's level 1 heading has rendered (the pages load lazily). */
export async function renderPageAt(url: string, options: RenderAppOptions = {}): Promise<RenderedApp> {
  const app = await renderApp(url, options);
  await screen.findByRole('heading', { level: 1 });
  return app;
}
