import type { IdleChange, KioskBridgeIdentity } from '@contract/kiosk-bridge';

/**
 * The web app's side of the kiosk app's bridge (docs/rules/kiosk.md#bridge). Every method past
 * getAppInfo is optional (an older kiosk app lacks it) and every answer is checked against the
 * contract again: a missing method, a refusal or a malformed answer is "no bridge", and the page
 * falls back to what it does in a plain browser.
 *
 * The schemas (and zod with them) load only when a bridge method is there: in a plain browser,
 * zod stays off the booking home (docs/web.md#budgets). Ending the patient's session is in
 * kiosk-bridge-end.ts: the entry chunk needs only that one (fail-closed idle watch).
 */
const loadContract = () => import('@contract/kiosk-bridge');

/** The kiosk's identity from the app (never its token), or null without the bridge method. */
export async function bridgeIdentity(win: Window): Promise<KioskBridgeIdentity | null> {
  const method = win.kiosk?.getKioskIdentity;
  if (typeof method !== 'function') return null;
  try {
    const [result, { KioskBridgeIdentitySchema }] = await Promise.all([method(), loadContract()]);
    if (!result.ok) return null;
    const parsed = KioskBridgeIdentitySchema.safeParse(result.value);
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Hardware idle pushed by the app; returns the unsubscribe, or null without the bridge method. */
export function subscribeSystemIdle(win: Window, listener: (change: IdleChange) => void): (() => void) | null {
  const method = win.kiosk?.onIdleChange;
  if (typeof method !== 'function') return null;
  const contract = loadContract();
  let active = true;
  // One promise: the changes reach the listener in the order the app pushed them.
  const unsubscribe = method((change) => {
    contract
      .then(({ IdleChangeSchema }) => {
        const parsed = IdleChangeSchema.safeParse(change);
        if (active && parsed.success) listener(parsed.data);
      })
      .catch(() => undefined);
  });
  return () => {
    active = false;
    unsubscribe();
  };
}

/** Tells the app a patient touched the page (a time only); best effort. */
export function bridgeReportActivity(win: Window): void {
  const method = win.kiosk?.reportPatientActivity;
  if (typeof method !== 'function') return;
  method().catch(() => undefined);
}
