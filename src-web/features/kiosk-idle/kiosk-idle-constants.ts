/** The kiosk idle cycle's constants (docs/rules/kiosk.md#inactivity). The idle time itself is the app config's kioskNoActivitySeconds. */

/** How long the inactivity dialog counts down before the patient's session ends. */
export const INACTIVITY_COUNTDOWN_SECONDS = 10;

/** Activity events closer together than this count once. */
export const ACTIVITY_THROTTLE_MS = 500;

/** The screen reader hears the countdown when the dialog opens and once more at this many seconds left, never every second. */
export const ANNOUNCE_AT_SECONDS = 5;

/** The logout call gets this long; after it the page is left anyway (the server ends an idle session by itself). */
export const LOGOUT_TIMEOUT_MS = 3_000;

/** The kiosk app hears of patient activity at most this often (its heartbeat sends the time). */
export const ACTIVITY_REPORT_MS = 30_000;
