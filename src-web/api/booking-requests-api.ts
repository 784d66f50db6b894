import type { BookingRequestSummary } from '@contract/api/booking-requests';
import type { ApiClient } from './client';

/** Typed calls of /api/booking-requests/{bookingKey}/* (src-contract/api/booking-requests.ts). */
export function createBookingRequestsApi(client: ApiClient) {
  const { http } = client;
  const base = (bookingKey: string) => `/api/booking-requests/${encodeURIComponent(bookingKey)}`;

  return {
    summary: async (bookingKey: string): Promise<BookingRequestSummary> => (await http.get<BookingRequestSummary>(base(bookingKey))).data,

    cancel: async (bookingKey: string): Promise<BookingRequestSummary> =>
      (await http.post<BookingRequestSummary>(`${base(bookingKey)}/cancel`)).data,

    /**
     * A file link the server gave (a referral's downloadUrl), on the client's base URL: a plain
     * link, so the session cookie goes with it and the server answers Content-Disposition: attachment.
     */
    fileUrl: (serverPath: string): string => {
      const root = (http.defaults.baseURL ?? '/').replace(/\/+$/, '');
      return `${root}${serverPath}`;
    },
  };
}

export type BookingRequestsApi = ReturnType<typeof createBookingRequestsApi>;
