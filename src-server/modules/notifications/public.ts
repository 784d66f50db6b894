/** What other modules may use of notifications: queue the booking confirmation mail inside their transaction. */
export { queueBookingConfirmation, type BookingConfirmation } from './booking-confirmation';
