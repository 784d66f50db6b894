import { lazy } from 'react';

/**
 * What other areas may use of kiosk scanning (docs/rules/kiosk.md#identify-by-scanning): the
 * camera scanner (its own chunk with jsQR, loaded when the patient asks for it) and the
 * keyboard-wedge hook for a USB scanner. Both hand over the text as scanned; reading a booking
 * key out of it is src-contract/booking-code.ts's job.
 */
export const LazyCameraScanner = lazy(() => import('./camera-scanner').then((module) => ({ default: module.CameraScanner })));
export { useKeyboardWedge } from './use-keyboard-wedge';
