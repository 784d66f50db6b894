import { observer } from 'mobx-react-lite';
import { I18nextProvider } from 'react-i18next';
import { RouterProvider, type createBrowserRouter } from 'react-router-dom';
import { KioskIdle } from './features/kiosk-idle/public';
import { AppErrorBoundary } from './shell/error-boundary';
import type { RootStore } from './stores/root-store';
import { StoresProvider } from './stores/use-stores';

/** A data router (browser in the app, memory in tests). */
export type PortalRouter = ReturnType<typeof createBrowserRouter>;

interface AppProps {
  root: RootStore;
  router: PortalRouter;
}

/**
 * The providers around the router: stores, i18n, error boundary; in kiosk mode, the idle watch
 * beside the router (once, whichever layout shows; docs/rules/kiosk.md#inactivity). antd's ConfigProvider is
 * not here: pages that use antd components wrap them in components/antd-scope.tsx, so the first
 * screen does not download or run antd's style runtime.
 */
export const App = observer(function App({ root, router }: AppProps) {
  return (
    <StoresProvider value={root}>
      <I18nextProvider i18n={root.i18n.i18n}>
        <AppErrorBoundary>
          <RouterProvider router={router} />
          {root.ui.kiosk && <KioskIdle />}
        </AppErrorBoundary>
      </I18nextProvider>
    </StoresProvider>
  );
});
