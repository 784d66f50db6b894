import { isExternalUrl, safeRedirectUrl } from '../platform/safe-url';

export interface AdminPanelSettings {
  /** Application config showLinkToAdminPanel. */
  enabled: boolean;
  /** Kiosk mode never shows the admin link (docs/rules/staff-access.md#staff-home). */
  kiosk: boolean;
  /** app.navigation.login, else radiology.domainAdmin. */
  login: string | null;
  domainAdmin: string | null;
}

/**
 * The admin panel's address where its link is shown, else null (docs/rules/shell.md#navigation):
 * configured values are checked like any URL from outside (only site paths and http(s) URLs), and
 * a site path goes through `href` (the page's layout). Its own module, so the staff home can use it
 * without the navigation's hooks.
 */
export function adminPanelAddress(settings: AdminPanelSettings, href: (path: string) => string): string | null {
  if (!settings.enabled || settings.kiosk) return null;
  const configured = (value: string | null): string | null => {
    const safe = safeRedirectUrl(value);
    if (!safe) return null;
    return isExternalUrl(safe) ? safe : href(safe);
  };
  return configured(settings.login) ?? configured(settings.domainAdmin);
}
