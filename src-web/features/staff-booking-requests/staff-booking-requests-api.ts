import {
  STAFF_BOOKING_REQUESTS_PATH,
  StaffBookingRequestListSchema,
  staffBookingRequestHandledPath,
  type StaffBookingRequestList,
} from '@contract/api/staff-booking-requests';
import type { ApiClient } from '../../api/client';
import { parseResponse } from '../../api/parse-response';

/** The staff queue's calls (staff, admin; src-contract/api/staff-booking-requests.ts). A 401 concerns the staff session, not a patient's. */
export function createStaffBookingRequestsApi(client: ApiClient) {
  const { http } = client;
  return {
    list: async (): Promise<StaffBookingRequestList> =>
      parseResponse(
        STAFF_BOOKING_REQUESTS_PATH,
        StaffBookingRequestListSchema,
        (await http.get<unknown>(STAFF_BOOKING_REQUESTS_PATH, { staffSession: true })).data,
      ),
    markHandled: async (bookingKey: string, note: string): Promise<void> => {
      await http.post(staffBookingRequestHandledPath(bookingKey), note === '' ? {} : { note }, { staffSession: true });
    },
  };
}
