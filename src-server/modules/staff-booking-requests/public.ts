/** The booking team's queue of booking requests (docs/rules/booking.md#the-staff-queue). */
export { createStaffBookingRequests, type StaffBookingRequests } from './service';
export { registerStaffBookingRequestRoutes } from './routes';
