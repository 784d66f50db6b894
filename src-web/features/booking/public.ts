// What other areas may use of the booking area; everything else in this folder is its own.
export { formatInstant, formatStartTime } from './booking-calendar';
export type { BookingQuestionnaireHooks } from './booking-store';
