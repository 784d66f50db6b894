import type { KIOSK_SPEC_COOKIES } from '@contract/kiosk-cookies';

// Apart from kiosk.ts, which the entry chunk holds: only kiosk pages and the booking locator
// write or read these.

/** Cookies that belong to the kiosk, not to a patient (docs/rules/kiosk.md#kiosk-check-in-in-the-web-app). */
export type KioskCookie = (typeof KIOSK_SPEC_COOKIES)[number];

/** The kiosk cookies' fixed expiry: 2030-12-31. */
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
