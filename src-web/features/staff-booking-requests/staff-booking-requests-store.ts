import {
  BOOKING_REQUEST_HANDLED_NOTE_MAX,
  type StaffBookingRequest,
  type StaffBookingRequestList,
} from '@contract/api/staff-booking-requests';
import { StaffQueueStore } from '../../components/staff-queue-store';
import type { FeatureStoreContext } from '../../stores/root-store';
import { createStaffBookingRequestsApi } from './staff-booking-requests-api';

/**
 * /staff/booking-requests (docs/rules/booking.md#the-staff-queue): the requests as the server
 * orders them (open oldest first, then the latest handled or cancelled), and "Mark handled".
 */
export type StaffBookingRequestsStore = StaffQueueStore<StaffBookingRequest, StaffBookingRequestList>;

export function staffBookingRequestsStoreOf({ client }: FeatureStoreContext): StaffBookingRequestsStore {
  const api = createStaffBookingRequestsApi(client);
  return new StaffQueueStore<StaffBookingRequest, StaffBookingRequestList>(
    { list: () => api.list(), mark: (item, note) => api.markHandled(item.bookingKey, note) },
    { noteMax: BOOKING_REQUEST_HANDLED_NOTE_MAX, nameOf: (item) => item.patient.name },
  );
}
