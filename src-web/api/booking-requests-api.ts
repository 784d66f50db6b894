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
     * Where a referral downloads from: a plain link (the session cookie goes with it, the server
     * answers with Content-Disposition: attachment), relative to the client's base URL.
     */
    referralUrl: (bookingKey: string, id: string): string => {
      const root = (http.defaults.baseURL ?? '/').replace(/\/+$/, '');
      return `${root}${base(bookingKey)}/referrals/${encodeURIComponent(id)}/download`;
    },
  };
}

export type BookingRequestsApi = ReturnType<typeof createBookingRequestsApi>;
