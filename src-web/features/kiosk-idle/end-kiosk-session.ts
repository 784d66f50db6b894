import { paths } from '../../paths';
import { KIOSK_COOKIES, KIOSK_STORAGE_KEYS } from '../../platform/kiosk';
import { bridgeEndPatientSession } from '../../platform/kiosk-bridge-end';
import { LOGOUT_TIMEOUT_MS } from './kiosk-idle-constants';

export interface KioskSessionEnd {
  win: Window;
  /** POST /api/patient-access/logout. */
  logout(): Promise<void>;
  /** The full document navigation; location.replace unless a test passes its own. */
  leave?(url: string): void;
}

/**
 * Ends a kiosk patient's session (docs/rules/kiosk.md#inactivity): wipes what the browser holds
 * of them, logs out on the server (best effort, at most LOGOUT_TIMEOUT_MS: a failure never stops
 * the rest), then replaces the document with the kiosk home. A new document is the one sure way
 * to drop every store; replacing (not pushing) keeps the patient's page off the history.
 */
export async function endKioskSession({ win, logout, leave }: KioskSessionEnd): Promise<void> {
  wipeBrowserState(win);
  try {
    await withTimeout(logout, LOGOUT_TIMEOUT_MS, win);
  } catch (error) {
    console.warn('[kiosk-idle] logout failed; the browser is wiped anyway', error);
  }
  // Again: a response that arrived meanwhile may have written something.
  wipeBrowserState(win);
  // In the kiosk app, main also clears what the page cannot reach (caches, the history) and loads
  // the kiosk home itself; the page still leaves in case it does not.
  await bridgeEndPatientSession(win);
  leaveForKioskHome(win, leave ?? ((url) => win.location.replace(url)));
}

/** Clears sessionStorage, localStorage and the readable cookies, keeping only the kiosk's own. */
export function wipeBrowserState(win: Window): void {
  for (const name of ['sessionStorage', 'localStorage'] as const) clearStorage(win, name);
  for (const cookie of readableCookieNames(win.document)) if (!KIOSK_COOKIES.includes(cookie)) expireCookie(win, cookie);
}

function clearStorage(win: Window, name: 'sessionStorage' | 'localStorage'): void {
  // Storage can be blocked (privacy modes, sandboxed frames): then there is nothing to clear.
  try {
    const storage = win[name];
    const kept = KIOSK_STORAGE_KEYS.flatMap((key) => {
      const value = storage.getItem(key);
      return value === null ? [] : [[key, value] as const];
    });
    storage.clear();
    for (const [key, value] of kept) storage.setItem(key, value);
  } catch (error) {
    console.warn(`[kiosk-idle] could not clear ${name}`, error);
  }
}

function readableCookieNames(doc: Document): string[] {
  try {
    return doc.cookie
      .split(';')
      .map((part) => part.split('=')[0]?.trim() ?? '')
      .filter((name) => name !== '');
  } catch {
    return [];
  }
}

/**
 * A cookie goes only when it is overwritten with the same path and domain (and, when
 * partitioned, as partitioned), which the page cannot read back: every path above the current
 * page and every domain up from the host name are tried.
 */
function expireCookie(win: Window, name: string): void {
  const { hostname, pathname } = win.location;
  const segments = pathname.split('/').filter(Boolean);
  const cookiePaths = ['/', ...segments.map((_, index) => `/${segments.slice(0, index + 1).join('/')}`)];
  const labels = hostname.split('.');
  const domains = [null, ...labels.slice(0, -1).map((_, index) => labels.slice(index).join('.'))];
  const flavours = win.isSecureContext ? ['', '; Secure; SameSite=None; Partitioned'] : [''];
  for (const path of cookiePaths)
    for (const domain of domains)
      for (const flavour of flavours)
        win.document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=${path}${domain ? `; domain=${domain}` : ''}${flavour}`;
}

function withTimeout(call: () => Promise<void>, ms: number, win: Window): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const timer = win.setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    Promise.resolve()
      .then(call)
      .then(resolve, reject)
      .finally(() => win.clearTimeout(timer));
  });
}

function leaveForKioskHome(win: Window, leave: (url: string) => void): void {
  // A kiosk inside a provider's frame (/iframe/kiosk) starts again inside the frame's layout.
  const home = paths.inLayoutOf(win.location.pathname, paths.kioskHome());
  // Nothing of the patient stays on the page being left, even if the navigation fails.
  win.document.body.replaceChildren();
  // The router saves scroll positions to sessionStorage as the page goes: wipe after it.
  win.addEventListener('pagehide', () => wipeBrowserState(win));
  // A copy restored from the back-forward cache would still hold the stores: leave it again.
  win.addEventListener('pageshow', (event) => {
    if (event.persisted) win.location.replace(home);
  });
  leave(home);
}
