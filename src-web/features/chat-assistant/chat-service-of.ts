import { createAttachmentsApi } from '../../api/attachments-api';
import { createBookingRequestsApi } from '../../api/booking-requests-api';
import { ApiError } from '../../api/client';
import type { FeatureStoreContext } from '../../stores/root-store';
import { ChatService } from './chat-service';

/** The provider's chat service, once per page session, or null when the provider has none (the built-in assistant answers). */
export function chatServiceOf({ root, client, window: win }: FeatureStoreContext): ChatService | null {
  const config = root.config.integration.chatService;
  if (config === null) return null;
  const requests = createBookingRequestsApi(client);
  const attachments = createAttachmentsApi(client);
  return new ChatService({
    config,
    window: win,
    locale: () => root.i18n.locale,
    report: (bookingKey, event) => requests.chatService(bookingKey, event),
    // As the request page's documents section uploads a referral: typed REFERRAL when the request asks for one.
    uploadReferral: async (bookingKey, file, onProgress) => {
      const owner = { base: 'booking_requests' as const, bookingKey };
      try {
        const asked = await attachments.response(owner);
        const referral = asked.documents.find((document) => document.documentTypeCode === 'REFERRAL');
        await attachments.upload(owner, file, referral ? { documentTypeId: referral.documentTypeId } : {}, onProgress);
      } catch (error) {
        throw new Error(error instanceof ApiError ? error.message : String(error));
      }
    },
  });
}
