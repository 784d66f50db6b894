import { KIOSK_TOKEN_COOKIE } from '@contract/api/kiosks';
import { KIOSK_SPEC_COOKIES } from '@contract/kiosk-cookies';
import type { Cookie, KioskWebContents } from './electron-surface';
import type { KioskLog } from './kiosk-log';

/**
 * Cookies that belong to the kiosk, not to a patient: the kiosk's token cookie and the spec's
 * kiosk cookies (src-web/platform/kiosk.ts KIOSK_COOKIES, docs/rules/kiosk.md#inactivity).
 */
export const KIOSK_KEPT_COOKIES: readonly string[] = [KIOSK_TOKEN_COOKIE, ...KIOSK_SPEC_COOKIES];

/**
 * Every kind of site data a patient's visit can leave; cookies are handled one by one above.
 * No 'websql': Chromium removed WebSQL, and Electron 45 no longer accepts the name.
 */
export const WIPED_STORAGES = ['localstorage', 'indexdb', 'cachestorage', 'serviceworkers', 'filesystem', 'shadercache'] as const;

/** The URL Electron needs to remove a cookie: its scheme, host and path. */
export function cookieUrl(cookie: Pick<Cookie, 'domain' | 'path' | 'secure'>): string {
  const host = (cookie.domain ?? '').replace(/^\./, '');
  return `${cookie.secure ? 'https' : 'http'}://${host}${cookie.path ?? '/'}`;
}

/**
 * Ends a patient's visit in main: removes every cookie but the kiosk's own, clears local
 * storage, IndexedDB, caches, the HTTP auth cache and the tab's sessionStorage, then loads the
 * kiosk home and drops the navigation history so Back leads nowhere. The kiosk identity (main's
 * files) is not touched. The home load is not awaited: the caller is the page being replaced.
 */
export async function endPatientSession(contents: KioskWebContents, startUrl: string, log: KioskLog): Promise<void> {
  const { session } = contents;
  const cookies = await session.cookies.get({});
  const patientCookies = cookies.filter((cookie) => !KIOSK_KEPT_COOKIES.includes(cookie.name));
  await Promise.all(patientCookies.map((cookie) => session.cookies.remove(cookieUrl(cookie), cookie.name)));
  await session.clearStorageData({ storages: [...WIPED_STORAGES] });
  await session.clearAuthCache();
  await session.clearCache();
  // No session API reaches sessionStorage (it lives in the tab): the page's own Storage.clear does.
  await contents.executeJavaScript('window.sessionStorage.clear()').catch((error: unknown) => {
    log.warn(`[session-wipe] sessionStorage not cleared: ${error instanceof Error ? error.message : String(error)}`);
  });
  log.info(`[session-wipe] patient session ended: ${patientCookies.length} cookies and site data cleared`);
  contents
    .loadURL(startUrl)
    .catch((error: unknown) => log.warn(`[session-wipe] kiosk home did not load: ${String(error)}`))
    // Even after a failed load: Back must never lead to the previous patient's pages.
    .finally(() => {
      if (!contents.isDestroyed()) contents.navigationHistory.clear();
    });
}
