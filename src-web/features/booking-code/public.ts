import { lazy } from 'react';

/**
 * What other areas may use of the booking code (docs/rules/kiosk.md#identify-by-scanning): the
 * QR box, its own chunk with the qrcode library, loaded when a confirmation or appointment shows.
 */
export const LazyBookingCodeBox = lazy(() => import('./booking-code-box').then((module) => ({ default: module.BookingCodeBox })));
