// What other areas may use of the chat assistant: the launcher (the conversation loads on its first open).
export { ChatLauncher } from './chat-launcher';
// The booking-request page names its request for the provider's chat service (chat-context.ts).
export { setChatBookingRequest } from './chat-context';
