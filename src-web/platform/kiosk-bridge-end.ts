// Apart from kiosk-bridge-client.ts: the entry chunk holds this (the idle watch's fail-closed end),
// and whatever shares a module with the entry chunk is downloaded by every page.

/** Asks the kiosk app to wipe the patient's session and load the kiosk home; false when it cannot. */
export async function bridgeEndPatientSession(win: Window): Promise<boolean> {
  const method = win.kiosk?.endPatientSession;
  if (typeof method !== 'function') return false;
  try {
    return (await method()).ok;
  } catch {
    return false;
  }
}
