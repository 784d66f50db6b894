import * as requests from '@contract/api/staff-booking-requests';
import { staffQueueStoreOf } from '../../components/staff-queue-api';
import type { StaffQueueStore } from '../../components/staff-queue-store';
import type { FeatureStoreFactory } from '../../stores/root-store';

/**
 * /staff/booking-requests (docs/rules/booking.md#the-staff-queue): the requests as the server
 * orders them (open oldest first, then the latest handled or cancelled), and "Mark handled"
 * (staff, admin; src-contract/api/staff-booking-requests.ts).
 */
export type StaffBookingRequestsStore = StaffQueueStore<requests.StaffBookingRequest, requests.StaffBookingRequestList>;

export const staffBookingRequestsStoreOf: FeatureStoreFactory<StaffBookingRequestsStore> = staffQueueStoreOf({
  listPath: requests.STAFF_BOOKING_REQUESTS_PATH,
  listSchema: requests.StaffBookingRequestListSchema,
  markPath: (item) => requests.staffBookingRequestHandledPath(item.bookingKey),
  noteMax: requests.BOOKING_REQUEST_HANDLED_NOTE_MAX,
  nameOf: (item) => item.patient.name,
});
