import ConfigProvider from 'antd/es/config-provider';
import { observer } from 'mobx-react-lite';
import { I18nextProvider } from 'react-i18next';
import { RouterProvider, type createBrowserRouter } from 'react-router-dom';
import { AppErrorBoundary } from './shell/error-boundary';
import { toAntdTheme } from './platform/theme';
import type { RootStore } from './stores/root-store';
import { StoresProvider } from './stores/use-stores';

/** A data router (browser in the app, memory in tests). */
export type PortalRouter = ReturnType<typeof createBrowserRouter>;

interface AppProps {
  root: RootStore;
  router: PortalRouter;
  /** The CSP nonce from meta[name=csp-nonce], so antd's runtime <style> tags are allowed. */
  cspNonce?: string;
}

/** The providers around the router: stores, i18n, error boundary, antd theme and locale. */
export const App = observer(function App({ root, router, cspNonce }: AppProps) {
  return (
    <StoresProvider value={root}>
      <I18nextProvider i18n={root.i18n.i18n}>
        <AppErrorBoundary>
          <ConfigProvider
            theme={toAntdTheme(root.config.theme)}
            locale={root.i18n.antdLocale}
            csp={cspNonce ? { nonce: cspNonce } : undefined}
          >
            <RouterProvider router={router} />
          </ConfigProvider>
        </AppErrorBoundary>
      </I18nextProvider>
    </StoresProvider>
  );
});
