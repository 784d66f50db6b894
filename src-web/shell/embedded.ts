import { createContext, useContext } from 'react';
import { useLocation } from 'react-router-dom';
import { paths } from '../paths';
import { isExternalUrl } from '../platform/safe-url';
import { isAdvancedBooking } from '@contract/shell/page-type';
import { useStores } from '../stores/use-stores';

/** True inside the /iframe layout (the embedded flag, docs/rules/embedding.md#iframe-prefix). */
export const EmbeddedContext = createContext(false);

export function useEmbedded(): boolean {
  return useContext(EmbeddedContext);
}

/** Turns an internal path into the one for the current layout (/about -> /iframe/about when embedded). */
export function usePortalHref(): (path: string) => string {
  const embedded = useEmbedded();
  return (path: string) => (embedded && !isExternalUrl(path) ? paths.embedded(path) : path);
}

/** Home for the logo and the home links: the kiosk start, advanced booking, or the booking portal. */
export function useHomeHref(): string {
  const { ui } = useStores();
  const { pathname } = useLocation();
  const href = usePortalHref();
  if (ui.kiosk) return href(paths.kioskHome());
  if (isAdvancedBooking(pathname)) return href(paths.advancedBooking());
  return href(paths.home());
}
