import { ROUTE } from '../../paths';
import type { KioskStep } from './kiosk-check-in-store';

/** /check-in at a step, in kiosk mode; never with the booking key. */
export function kioskCheckInPath(step: KioskStep): string {
  return `/${ROUTE.checkIn}?step=${step}&kioskMode=true`;
}
