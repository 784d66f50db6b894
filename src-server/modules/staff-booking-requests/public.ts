import type { Queryable } from '../../db/connection';
import { createStaffBookingRequestsRepository } from './repository';

/** The booking team's queue of booking requests (docs/rules/booking.md#the-staff-queue). */
export { createStaffBookingRequests, type StaffBookingRequests } from './service';
export { registerStaffBookingRequestRoutes } from './routes';

/**
 * The chat service booked the request: the queue shows it handled (unless staff handled it
 * first); false when it already was. Runs in the caller's transaction (booking-requests' chat events).
 */
export function markBookedByChatService(tx: Queryable, bookingKey: string, at: Date): Promise<boolean> {
  return createStaffBookingRequestsRepository(tx).markBookedByChatService(bookingKey, at);
}
