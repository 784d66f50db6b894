import type { BookingRequestSummary, ChatServiceEvent } from '@contract/api/booking-requests';
import type { ApiClient } from './client';
import { fileUrl } from './file-url';

/** Typed calls of /api/booking-requests/{bookingKey}/* (src-contract/api/booking-requests.ts). */
export function createBookingRequestsApi(client: ApiClient) {
  const { http } = client;
  const base = (bookingKey: string) => `/api/booking-requests/${encodeURIComponent(bookingKey)}`;

  return {
    summary: async (bookingKey: string): Promise<BookingRequestSummary> => (await http.get<BookingRequestSummary>(base(bookingKey))).data,

    cancel: async (bookingKey: string): Promise<BookingRequestSummary> =>
      (await http.post<BookingRequestSummary>(`${base(bookingKey)}/cancel`)).data,

    /** The provider's chat service's conversation about the request started or ended (docs/rules/chat.md). */
    chatService: async (bookingKey: string, event: ChatServiceEvent): Promise<BookingRequestSummary> =>
      (await http.post<BookingRequestSummary>(`${base(bookingKey)}/chat-service`, event)).data,

    fileUrl: (serverPath: string): string => fileUrl(http, serverPath),
  };
}

export type BookingRequestsApi = ReturnType<typeof createBookingRequestsApi>;
