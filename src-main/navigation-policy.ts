import type { HandlerDetails, KioskWebContents, NavigationEvent, WindowOpenHandlerResponse } from './electron-surface';
import type { KioskLog } from './kiosk-log';

/** Only web origins can be the portal; everything else (javascript:, data:, file:, blob:, about:) is refused. */
const WEB_PROTOCOLS = new Set(['http:', 'https:']);

/**
 * Whether the kiosk may navigate (any frame) to `url`: true only when the parsed URL's origin
 * equals `allowedOrigin` exactly.
 *
 * The comparison is on WHATWG-parsed origins, never on strings, so
 * `https://portal.example.com.evil.com` and `https://portal.example.com@evil.com` (host evil.com)
 * fail, while `HTTPS://Portal.Example.com:443/x` passes. A trailing dot is a different host to
 * the URL parser and fails too. URLs carrying credentials are refused even on our origin: the
 * portal never uses them and they are a classic phishing disguise.
 *
 * @param url - the navigation target as Electron reports it.
 * @param allowedOrigin - the portal origin, e.g. `https://portal.example.com`.
 */
export function isAllowedNavigation(url: string, allowedOrigin: string): boolean {
  const target = parseUrl(url);
  const allowed = parseUrl(allowedOrigin);
  if (!target || !allowed) return false;
  if (!WEB_PROTOCOLS.has(target.protocol) || !WEB_PROTOCOLS.has(allowed.protocol)) return false;
  if (target.username !== '' || target.password !== '') return false;
  return target.origin === allowed.origin;
}

/** The origin of `url` for log lines (never the path or query: they may hold a booking key). */
export function originForLog(url: string): string {
  const parsed = parseUrl(url);
  if (!parsed) return '(unparseable url)';
  return parsed.origin === 'null' ? `${parsed.protocol}(opaque)` : parsed.origin;
}

function parseUrl(value: string): URL | null {
  try {
    return new URL(value);
  } catch {
    return null;
  }
}

/** The window-open handler: the kiosk never opens another window, for any URL (Electron checklist #14). */
export function denyWindowOpen(_details: HandlerDetails): WindowOpenHandlerResponse {
  return { action: 'deny' };
}

/**
 * Locks a webContents to the portal origin: `will-navigate` (main frame, user or script) and
 * `will-frame-navigate` (every frame, including iframes) are cancelled for any other origin,
 * and `window.open` / target=_blank are always denied. There is deliberately no
 * `shell.openExternal` fallback: a kiosk must not hand a URL to the desktop's browser.
 */
export function installNavigationPolicy(contents: KioskWebContents, allowedOrigin: string, log: KioskLog): void {
  const guard = (eventName: string) => (event: NavigationEvent) => {
    if (isAllowedNavigation(event.url, allowedOrigin)) return;
    event.preventDefault();
    log.warn(`[navigation] blocked ${eventName} to ${originForLog(event.url)} (${event.isMainFrame ? 'main frame' : 'subframe'})`);
  };
  contents.on('will-navigate', guard('will-navigate'));
  contents.on('will-frame-navigate', guard('will-frame-navigate'));
  contents.setWindowOpenHandler((details) => {
    log.warn(`[navigation] denied window.open to ${originForLog(details.url)}`);
    return denyWindowOpen(details);
  });
}
