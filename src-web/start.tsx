import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { createBrowserRouter } from 'react-router-dom';
import { FALLBACK_LOCALE } from '@contract/api/locales';
import { createApiClient } from './api/client';
import { createConfigApi } from './api/config-api';
import { App, type PortalRouter } from './app';
import { createI18n } from './i18n/create-i18n';
import { readEmbeddedConfig } from './platform/bootstrap-config';
import { initErrorReporting } from './platform/error-reporting';
import { buildRoutes, matchedPage } from './routes';
import { BootstrapError } from './shell/bootstrap-error';
import { preloadSanitizer } from './components/safe-html';
import { RootStore } from './stores/root-store';

/** Stores get the router's navigation, so a 401 re-authentication is a client-side move. */
export function routerNavigator(router: PortalRouter) {
  return {
    navigate: (to: string, options?: { replace?: boolean }) => void router.navigate(to, options),
    currentUrl: () => `${router.state.location.pathname}${router.state.location.search}`,
  };
}

/**
 * Starts the portal: configuration (injected by the server, else from the API), error
 * reporting when configured, stores, router, language; then the first render.
 */
export async function start(container: HTMLElement): Promise<void> {
  const client = createApiClient();
  const config = readEmbeddedConfig(document) ?? (await createConfigApi(client).bootstrap());
  initErrorReporting(config.integration, config.app.version).catch((error: unknown) =>
    console.warn('[error-reporting] could not start', error),
  );
  const root = new RootStore({ config, client, window });
  // A staff member coming back (or back from the identity provider's page): nothing for anyone else.
  void root.staff.restore();
  const { app, radiology } = config;
  const configuredHtml =
    (app.bannerEnabled && Boolean(app.bannerHtml)) || (radiology.showCustomHeaderAndFooter && Boolean(radiology.customFooter));
  // The language (server overlay and catalogue chunk) and the sanitiser are on the
  // first render's critical path: start them first, and yield once so their requests are on the
  // wire (axios sends from a microtask) while the router is set up in the next task.
  const ready = Promise.all([root.i18n.init(), configuredHtml ? preloadSanitizer() : null]);
  ready.catch(() => undefined); // observed below; this only keeps the rejection from being "unhandled" meanwhile
  await nextTask();
  // Creating the router starts downloading the first page's code (lazy routes).
  const router = createBrowserRouter(buildRoutes());
  root.attachNavigator(routerNavigator(router));
  // The booking home's data goes out with its code instead of after the first render: one
  // round trip less before the exam list shows (Lighthouse LCP on a slow phone network).
  const firstPage = matchedPage(router.state.matches);
  if (firstPage === 'booking' || firstPage === 'advanced-booking') void root.booking.examChoice.loadCatalogue();
  await ready;
  const reactRoot = createRoot(container);
  // A transition renders in slices that yield to the browser (a phone's input and paint), instead
  // of one long task over the whole first page; the server's first paint stays until it commits.
  startTransition(() => {
    reactRoot.render(
      <StrictMode>
        <App root={root} router={router} />
      </StrictMode>,
    );
  });
}

/** Resolves in a later task, after pending microtasks (such as axios sending a request) have run. */
function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** Without configuration nothing else can run; say so in the fallback language. */
export async function showBootstrapError(container: HTMLElement, error: unknown): Promise<void> {
  console.error('[bootstrap] the portal could not start', error);
  const i18n = await createI18n(FALLBACK_LOCALE, {});
  document.documentElement.lang = FALLBACK_LOCALE;
  createRoot(container).render(
    <I18nextProvider i18n={i18n}>
      <BootstrapError />
    </I18nextProvider>,
  );
}
