import type { BootstrapConfig } from '@contract/api/config';
import { KIOSK_SPEC_COOKIES } from '@contract/kiosk-cookies';
import { bannerClosedIn } from '@contract/shell/banner-cookie';
import { headerImageFor, pageType } from '@contract/shell/page-type';
import { escapeHtml } from './index-html';

/**
 * The portal's first paint, written into index.html by the server (docs/rules/shell.md#first-paint):
 * the environment strip, the provider's banner and the header, laid out exactly as the app's
 * PortalLayout lays them out (src-web/shell/shell-layout.tsx), so a phone on a slow network shows
 * the provider's page while the app's code downloads. React's first render replaces it.
 *
 * Only the chrome is drawn, never the page's content: it is the same on every page of the site
 * layout, and what the app draws below it only adds to the page.
 */

export interface FirstPaintRequest {
  /** The request's path and query, as the browser asked for it. */
  url: string;
  /** The Cookie header, if any. */
  cookie: string | undefined;
}

/** The first path segments whose pages have a layout of their own (embedded, kiosk). */
const OWN_LAYOUT_SEGMENTS = new Set(['iframe', 'kiosk']);

/**
 * Whether the page at `url` is drawn in the site layout. Embedded pages and the kiosk have their
 * own; a kiosk (`kioskMode=true`, a kiosk path, or an enrolled kiosk's cookie) never shows the
 * website's header.
 */
export function hasSiteLayout(request: FirstPaintRequest): boolean {
  const parsed = new URL(request.url, 'http://portal.invalid');
  const segments = parsed.pathname.split('/').filter(Boolean);
  if (OWN_LAYOUT_SEGMENTS.has(segments[0] ?? '')) return false;
  if (segments[0] === 'appointments' && segments[2] === 'kiosk') return false;
  if (parsed.searchParams.get('kioskMode') === 'true') return false;
  const [identityCookie] = KIOSK_SPEC_COOKIES;
  return !(request.cookie ?? '').split(';').some((pair) => pair.trim().startsWith(`${identityCookie}=`));
}

/** An icon's place (20 px, as src-web/components/icons.tsx draws them); the icon comes with the app. */
const ICON_PLACE = '<svg width="20" height="20" aria-hidden="true" focusable="false"></svg>';

/** The environment strip's place: the same box as the app's badge, its words come with the app. */
function environmentStrip({ environment }: BootstrapConfig): string {
  const { production, profiles, readOnly, bannerCorner } = environment;
  if (production || (profiles.length === 0 && !readOnly) || !bannerCorner.startsWith('top')) return '';
  const lines = [profiles.length > 0, readOnly].filter(Boolean).map(() => '<p>&nbsp;</p>');
  return `<aside class="pp-environment pp-environment-${bannerCorner}" aria-hidden="true"><div class="pp-environment-badge">${lines.join('')}</div></aside>`;
}

/** The banner as the app draws it; its HTML was sanitised when the configuration was read. */
function banner(bootstrap: BootstrapConfig, cookie: string | undefined): string {
  const { bannerEnabled, bannerHtml } = bootstrap.app;
  if (!bannerEnabled || !bannerHtml || bannerClosedIn(cookie)) return '';
  // The close button's place, so the text wraps as it will; the button itself comes with the app.
  const close = bootstrap.radiology.closeBanner
    ? `<span class="pp-icon-button pp-banner-close" aria-hidden="true">${ICON_PLACE}</span>`
    : '';
  return `<section class="pp-banner"><div class="pp-banner-content">${bannerHtml}</div>${close}</section>`;
}

/**
 * The header: the logo, and on wider screens the header message and the login's place; then the
 * header picture for the page type (the tablet picture on touch screens of tablet width).
 */
function header(bootstrap: BootstrapConfig, pathname: string): string {
  const { app } = bootstrap;
  const message = app.headerMessage ? `<p class="pp-header-message">${escapeHtml(app.headerMessage)}</p>` : '';
  const login = app.showLinkToAdminPanel ? `<span class="pp-login-link" aria-hidden="true">${ICON_PLACE}</span>` : '';
  const type = pageType(pathname);
  const image = (name: string) => `/api/assets/application/${name}`;
  const tablet = headerImageFor(type, 'tablet');
  const picture =
    tablet === headerImageFor(type, 'desktop')
      ? `<img src="${image(tablet)}" alt="">`
      : `<picture><source media="(pointer: coarse) and (min-width: 768px) and (max-width: 1279px)" srcset="${image(tablet)}"><img src="${image(headerImageFor(type, 'desktop'))}" alt=""></picture>`;
  return (
    `<header class="pp-header"><div class="pp-nav pp-nav-first-paint"><div class="pp-nav-bar">` +
    `<img class="pp-logo" src="${image('logo')}" alt=""></div>${message}${login}</div>` +
    `<div class="pp-header-image">${picture}</div></header>`
  );
}

/** The first paint for a request, or '' where the page is not drawn in the site layout. */
export function renderFirstPaint(bootstrap: BootstrapConfig, request: FirstPaintRequest): string {
  if (!hasSiteLayout(request)) return '';
  const { pathname } = new URL(request.url, 'http://portal.invalid');
  return `<div class="pp-app pp-first-paint">${environmentStrip(bootstrap)}${banner(bootstrap, request.cookie)}${header(bootstrap, pathname)}</div>`;
}
