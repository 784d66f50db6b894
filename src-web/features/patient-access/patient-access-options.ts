import type { PatientAccessApi } from '../../api/patient-access-api';
import type { PortalNavigator, SessionStore } from '../../stores/session-store';

// Shared by both patient-access stores, so the sign-in store needs nothing from the access store (which refers to it).

/** What the patient-access stores are given (root-store.ts builds it; tests inject their own). */
export interface PatientAccessOptions {
  api: PatientAccessApi;
  session: SessionStore;
  navigator: () => PortalNavigator;
  /** The app config's seconds between one-time password sends. */
  otpResendSeconds: () => number;
  /** Local date, YYYY-MM-DD (a date of birth may not be after it). */
  today: () => string;
  /** True when the browser keeps cookies (the session lives in one). */
  cookiesEnabled: () => boolean;
  /** Lays role-specific translations over the catalogue (docs/rules/shell.md#languages). */
  applyTranslations: (overlay: Record<string, unknown>) => void;
  scrollToTop: () => void;
  /** True while staff (or an admin) are signed in: only then does ?staffBooking=true change the texts. */
  staffMayBook?: () => boolean;
  timers?: { setInterval: (fn: () => void, ms: number) => unknown; clearInterval: (handle: unknown) => void };
}

/** The role overlay as an object, or null when it is empty or not a JSON object. */
export function parseRoleTranslations(json: string): Record<string, unknown> | null {
  if (!json.trim()) return null;
  try {
    const value: unknown = JSON.parse(json);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
