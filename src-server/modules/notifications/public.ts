/** What other modules may use of notifications: queue the booking confirmation mail inside their transaction. */
export { queueBookingConfirmation, type BookingConfirmation } from './booking-confirmation';
/** The booking pages' "Add to calendar" file is the mail's own (one event per appointment, the same UID). */
export { ICS_CONTENT_TYPE, renderBookingConfirmation } from './booking-confirmation';
