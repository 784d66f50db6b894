import { lazy } from 'react';

/**
 * What other areas may use of the booking code (docs/rules/kiosk.md#identify-by-scanning): the
 * QR box, its own chunk (the QR encoder loads with the first code), shown by a confirmation or an appointment.
 */
export const LazyBookingCodeBox = lazy(() => import('./booking-code-box').then((module) => ({ default: module.BookingCodeBox })));
