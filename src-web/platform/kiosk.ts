import { KIOSK_SPEC_COOKIES } from '@contract/kiosk-cookies';
import type { KioskApi } from '@contract/kiosk-bridge';

declare global {
  interface Window {
    /** Present only inside the kiosk app (src-preload exposes it); the web app works without it. */
    kiosk?: KioskApi;
  }
}

/** True when the kiosk app's preload bridge is present. */
export function hasKioskBridge(win: Window): boolean {
  return typeof win.kiosk === 'object' && win.kiosk !== null;
}

const KIOSK_SESSION_KEY = 'portal.kioskMode';

/** Storage keys that belong to the kiosk, not to a patient: they outlive each patient's session. */
export const KIOSK_STORAGE_KEYS: readonly string[] = [KIOSK_SESSION_KEY];

/**
 * Cookies that belong to the kiosk, not to a patient (docs/rules/kiosk.md#kiosk-check-in-in-the-web-app);
 * written by kiosk-cookies.ts.
 */
export const KIOSK_COOKIES: readonly string[] = KIOSK_SPEC_COOKIES;

/**
 * Paths that are kiosk pages by themselves (docs/rules/kiosk.md#the-kiosk-shell): the kiosk home, /kiosk, and the
 * appointment's kiosk page, /appointments/{bookingKey}/kiosk (also under a clinic path or /iframe).
 */
export function isKioskPath(pathname: string): boolean {
  return /^\/(?:iframe\/)?kiosk\/?$/.test(pathname) || /(?:^|\/)appointments\/[^/]+\/kiosk\/?$/.test(pathname);
}

/**
 * Kiosk mode is switched on by `?kioskMode=true` or a kiosk path (isKioskPath) in browser kiosks,
 * or by the kiosk app's bridge, and stays on for the browser session so later links without the
 * query keep it.
 */
export function detectKioskMode(win: Window): boolean {
  const requested = new URLSearchParams(win.location.search).get('kioskMode') === 'true' || isKioskPath(win.location.pathname);
  const remembered = readSession(win) === 'true';
  const kiosk = requested || remembered || hasKioskBridge(win);
  if (kiosk && !remembered) writeSession(win, 'true');
  return kiosk;
}

// sessionStorage throws in some privacy modes and sandboxed frames; kiosk mode then lasts for the page.
function readSession(win: Window): string | null {
  try {
    return win.sessionStorage.getItem(KIOSK_SESSION_KEY);
  } catch {
    return null;
  }
}

function writeSession(win: Window, value: string): void {
  try {
    win.sessionStorage.setItem(KIOSK_SESSION_KEY, value);
  } catch {
    // see readSession
  }
}
