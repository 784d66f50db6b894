/** What other modules may use of booking: the service (bookInTransaction books inside their own steps). */
export type { BookingService } from './service';
export type { BookingSteps } from './appointment-writes';
export { bookingPreparation } from './preparation';
