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

/** Cookies that belong to the kiosk, not to a patient (spec point 3; docs/rules/kiosk.md). */
export type KioskCookie = (typeof KIOSK_SPEC_COOKIES)[number];
export const KIOSK_COOKIES: readonly string[] = KIOSK_SPEC_COOKIES;

/** The kiosk cookies' fixed expiry: 2030-12-31 (spec point 3). */
export const KIOSK_COOKIE_EXPIRY = new Date(Date.UTC(2030, 11, 31, 23, 59, 59)).toUTCString();

/** Writes one of the kiosk's own cookies: expires 2030-12-31, the whole site (path /). */
export function writeKioskCookie(doc: Document, name: KioskCookie, value: string): void {
  doc.cookie = `${name}=${encodeURIComponent(value)}; expires=${KIOSK_COOKIE_EXPIRY}; path=/; SameSite=Lax`;
}

/** One of the kiosk's cookies, decoded, or null. */
export function readKioskCookie(doc: Document, name: KioskCookie): string | null {
  for (const part of doc.cookie.split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return decodeURIComponent(value.join('='));
  }
  return null;
}

/**
 * Paths that are kiosk pages by themselves (spec point 2): the kiosk home, /kiosk, and the
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
