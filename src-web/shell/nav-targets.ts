import { paths } from '../paths';
import { isExternalUrl, safeRedirectUrl } from '../platform/safe-url';
import { useStores } from '../stores/use-stores';
import { useHomeHref, usePortalHref } from './embedded';

export interface NavTargets {
  home: string;
  externalHome: string | null;
  about: string;
  contact: string;
  terms: string;
  privacy: string;
  /** Staff login; null when hidden (kiosk, disabled in configuration, someone signed in, no target). */
  login: string | null;
}

/**
 * Where each navigation and footer link goes: the external URL configured in
 * app.navigation when set (docs/rules/shell.md#navigation), otherwise our own page. Configured values are
 * checked like any URL from outside: only site paths and http(s) URLs are used.
 */
export function useNavTargets(): NavTargets {
  const { config, ui, session } = useStores();
  const href = usePortalHref();
  const homeHref = useHomeHref();
  const nav = config.app.navigation;

  const configured = (value: string | null): string | null => {
    const safe = safeRedirectUrl(value);
    if (!safe) return null;
    return isExternalUrl(safe) ? safe : href(safe);
  };
  const showLogin = config.app.showLinkToAdminPanel && !ui.kiosk && !session.isAuthenticated;

  return {
    home: configured(nav.home) ?? homeHref,
    externalHome: configured(nav.externalHome),
    about: configured(nav.about) ?? href(paths.about()),
    contact: configured(nav.contact) ?? href(paths.contact()),
    terms: configured(nav.terms) ?? href(paths.terms()),
    privacy: configured(nav.privacy) ?? href(paths.privacy()),
    login: showLogin ? (configured(nav.login) ?? configured(config.radiology.domainAdmin)) : null,
  };
}
