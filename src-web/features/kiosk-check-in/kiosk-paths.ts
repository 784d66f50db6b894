import { hrefOf, ROUTE } from '../../paths';
import type { KioskStep } from './kiosk-check-in-store';

/** /check-in at a step, in kiosk mode; never with the booking key. */
export function kioskCheckInPath(step: KioskStep): string {
  return hrefOf(ROUTE.checkIn, {}, { step, kioskMode: true });
}
