import { endKioskSession } from '../kiosk-idle/public';

/**
 * Start again (and the end of a visit): signs the patient out, wipes what the browser holds of them (the kiosk's own cookies
 * stay) and loads the kiosk home as a new document, as the idle cycle does.
 */
export function goKioskHome(logout: () => Promise<void>): void {
  void endKioskSession({ win: window, logout });
}
