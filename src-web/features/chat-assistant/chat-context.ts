/**
 * The booking request the page shows, for the provider's chat service to talk about
 * (docs/rules/chat.md#the-providers-chat-service). The booking-request page sets it while it shows
 * a live request; a conversation that starts there reports about that request until it ends.
 * Dependency-free: the booking-request page imports it through public.ts.
 */
export interface ChatRequestContext {
  bookingKey: string;
  /** The conversation changed the request (its type, or booked): the page reloads it. */
  onChanged(): void;
}

let current: ChatRequestContext | null = null;

export function setChatBookingRequest(context: ChatRequestContext | null): void {
  current = context;
}

export function chatBookingRequest(): ChatRequestContext | null {
  return current;
}
