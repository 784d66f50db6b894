import { observer } from 'mobx-react-lite';
import { useEffect } from 'react';
import { Outlet, ScrollRestoration, useLocation, useNavigation } from 'react-router-dom';
import { isEmbeddedPath } from '../paths';
import { themeVariables } from '@contract/shell/theme-variables';
import { useStores } from '../stores/use-stores';
import { useKeepAlive } from './keep-alive';
import { LoadingOverlay } from './loading-overlay';

/**
 * The root route: keeps the document in step with the stores (title, theme variables,
 * zoom, background) and shows the loading overlay from navigation start to its end,
 * cancel or error (docs/rules/shell.md#loading-overlay).
 */
export const AppFrame = observer(function AppFrame() {
  const { config, ui } = useStores();
  const navigation = useNavigation();
  const title = config.title;
  const theme = config.theme;
  // In a frame the provider's page is the backdrop, and the frame is as tall as its content (never a
  // short screen): neither the portal's background picture nor the zoom belong there.
  const embedded = isEmbeddedPath(useLocation().pathname);
  const zoomed = ui.zoomed && !embedded;
  const background = !ui.isMobile && !embedded && config.app.patientPortalBackgroundEnabled;

  useEffect(() => {
    document.title = title;
  }, [title]);

  useEffect(() => ui.watchViewport(), [ui]);

  // Signed-in sessions stay alive while their page is open and visible (keep-alive.ts).
  useKeepAlive();

  useEffect(() => {
    const style = document.documentElement.style;
    for (const [name, value] of Object.entries(themeVariables(theme))) style.setProperty(name, value);
  }, [theme]);

  useEffect(() => {
    document.documentElement.classList.toggle('pp-zoomed', zoomed);
  }, [zoomed]);

  useEffect(() => {
    document.body.classList.toggle('pp-has-background', background);
  }, [background]);

  return (
    <>
      <Outlet />
      {ui.checkingRequest ? <LoadingOverlay checkingRequest /> : (navigation.state === 'loading' || ui.loading) && <LoadingOverlay />}
      <ScrollRestoration />
    </>
  );
});
