import { paths } from '../paths';
import { isExternalUrl, safeRedirectUrl } from '../platform/safe-url';
import { useStores } from '../stores/use-stores';
import { adminPanelAddress } from './admin-panel';
import { useHomeHref, usePortalHref } from './embedded';

export interface NavTargets {
  home: string;
  externalHome: string | null;
  about: string;
  contact: string;
  terms: string;
  privacy: string;
  /**
   * The admin panel's address, when the link is shown (showLinkToAdminPanel, never in kiosk
   * mode): the target of the login link when the portal has no staff sign-in of its own, and an
   * item of a signed-in staff member's menu.
   */
  adminPanel: string | null;
  /** Staff login link; null when hidden (kiosk, disabled in configuration, someone signed in, no target). */
  login: string | null;
  /** Staff sign-in through the identity provider, offered where the login link would be (docs/identity.md#the-browser). */
  staffSignIn: boolean;
}

/**
 * Where each navigation and footer link goes: the external URL configured in
 * app.navigation when set (docs/rules/shell.md#navigation), otherwise our own page. Configured values are
 * checked like any URL from outside: only site paths and http(s) URLs are used.
 */
export function useNavTargets(): NavTargets {
  const { config, ui, session, staff } = useStores();
  const href = usePortalHref();
  const homeHref = useHomeHref();
  const nav = config.app.navigation;

  const configured = (value: string | null): string | null => {
    const safe = safeRedirectUrl(value);
    if (!safe) return null;
    return isExternalUrl(safe) ? safe : href(safe);
  };
  const adminLinkShown = config.app.showLinkToAdminPanel && !ui.kiosk;
  const adminPanel = adminPanelAddress(
    { enabled: config.app.showLinkToAdminPanel, kiosk: ui.kiosk, login: nav.login, domainAdmin: config.radiology.domainAdmin },
    href,
  );
  const nobodySignedIn = !session.isAuthenticated && staff.user === null;
  const staffSignIn = adminLinkShown && nobodySignedIn && staff.settings !== null;

  return {
    home: configured(nav.home) ?? homeHref,
    externalHome: configured(nav.externalHome),
    about: configured(nav.about) ?? href(paths.about()),
    contact: configured(nav.contact) ?? href(paths.contact()),
    terms: configured(nav.terms) ?? href(paths.terms()),
    privacy: configured(nav.privacy) ?? href(paths.privacy()),
    adminPanel,
    login: adminLinkShown && nobodySignedIn && !staffSignIn ? adminPanel : null,
    staffSignIn,
  };
}
