import type { Location } from '@contract/api/booking';
import { writeKioskCookie } from '../../platform/kiosk-cookies';

export type PositionSource = 'query' | 'kiosk' | 'browser' | 'postcode';

export interface Position extends Location {
  source: PositionSource;
}

/** Where the position comes from besides the query: the browser and the kiosk's stored postcode. */
export interface Locator {
  /** The browser's position; rejects when refused, unavailable or too slow. May prompt the patient. */
  browserPosition(): Promise<Location>;
  /** Whether the site may read the position without a prompt ('granted'); never prompts. */
  browserPermission(): Promise<PermissionState | 'unknown'>;
  /** The postcode a kiosk stored in its cookie (the postalCodeLocationId cookie, docs/rules/kiosk.md#kiosk-mode-in-the-web-app), or null. */
  kioskPostcode(): string | null;
  /** In kiosk mode, keeps a located postcode for the next patient at this kiosk (cookie). */
  rememberKioskPostcode(postcode: string): void;
}

/**
 * The browser's geolocation, and the kiosk's stored postcode in kiosk mode: what the app passes
 * (root-store.ts), so this module loads with the later booking steps rather than the first screen.
 */
export interface LocatorSource {
  browser: Window;
  kiosk: () => boolean;
}

/** How long the browser may take to find the position before the flow moves on without it. */
export const BROWSER_POSITION_TIMEOUT_MS = 10_000;

/** The cookie a kiosk keeps its postcode location in (docs/rules/kiosk.md#kiosk-mode-in-the-web-app). */
export const KIOSK_POSTCODE_COOKIE = 'postalCodeLocationId';

function readCookie(doc: Document, name: string): string | null {
  for (const part of doc.cookie.split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return decodeURIComponent(value.join('='));
  }
  return null;
}

/** The browser's geolocation and, in kiosk mode, the kiosk's stored postcode. */
export function createBrowserLocator(win: Window, isKiosk: () => boolean): Locator {
  return {
    browserPosition: () =>
      new Promise<Location>((resolve, reject) => {
        const geolocation = win.navigator.geolocation as Geolocation | undefined;
        if (!geolocation) {
          reject(new Error('geolocation is not available'));
          return;
        }
        geolocation.getCurrentPosition(
          (position) => resolve({ latitude: position.coords.latitude, longitude: position.coords.longitude }),
          (error) => reject(new Error(error.message || 'position unavailable')),
          { timeout: BROWSER_POSITION_TIMEOUT_MS, maximumAge: 600_000 },
        );
      }),
    browserPermission: async () => {
      // Inside a frame without the geolocation permission policy, or in browsers without the
      // Permissions API, nothing is known: the step then waits for "Use my location".
      try {
        const status = await win.navigator.permissions.query({ name: 'geolocation' });
        return status.state;
      } catch {
        return 'unknown';
      }
    },
    kioskPostcode: () => {
      if (!isKiosk()) return null;
      const value = readCookie(win.document, KIOSK_POSTCODE_COOKIE);
      return value && /^\d{4}$/.test(value) ? value : null;
    },
    rememberKioskPostcode: (postcode) => {
      if (!isKiosk() || !/^\d{4}$/.test(postcode)) return;
      writeKioskCookie(win.document, KIOSK_POSTCODE_COOKIE, postcode);
    },
  };
}

export { KIOSK_COOKIE_EXPIRY } from '../../platform/kiosk-cookies';
