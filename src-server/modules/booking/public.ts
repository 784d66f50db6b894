/** What other modules may use of booking: the service (bookInTransaction books inside their own steps). */
export type { BookingService } from './service';
export type { BookingSteps } from './appointment-writes';
export { bookingPreparation } from './preparation';
/** Status changes of the booking's appointments and requests (booking owns both tables). */
export { createBookingRecords } from './booking-records-repository';
/** A booking's insurance, ethnicity and referring practice (the summary for staff and its patient, the RIS hand-off). */
export { formDetailsOf, formDetailsOfMany } from './form-details';
/** Booking by the provider's own systems (the FHIR API's $book): app.systemBooking. */
export type { SystemBooking, SystemBookingRequest, ScreeningAnswer } from './system-booking';
