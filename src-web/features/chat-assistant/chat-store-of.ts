import { createAttachmentsApi } from '../../api/attachments-api';
import { createQuestionnairesApi } from '../../api/questionnaires-api';
import { randomUuid } from '../../platform/uuid';
import type { FeatureStoreContext } from '../../stores/root-store';
import { ChatStore } from './chat-store';

/** The patient's local date, YYYY-MM-DD. */
function localToday(now: Date): string {
  const pad = (value: number): string => String(value).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/**
 * The conversation, once per page session (closing the panel keeps it), talking to the booking's
 * own calls: the catalogue and its exam search, the clinics, temporary keys and attachments as
 * the booking flow uploads referrals, and POST /api/booking/booking-requests.
 */
export function chatStoreOf({ root, client, window: win }: FeatureStoreContext): ChatStore {
  const booking = root.api.booking;
  const questionnaires = createQuestionnairesApi(client);
  const attachments = createAttachmentsApi(client);
  return new ChatStore({
    catalogue: () => booking.catalogue(),
    searchFor: async (catalogue) => (await import('@contract/search/exam-search')).createExamSearch(catalogue),
    clinics: async (examSlug) => (await booking.clinics({ exams: [examSlug] })).clinics,
    newBookingKey: async () => (await questionnaires.newBookingKey()).bookingKey,
    referralTypeId: async (bookingKey, examSlug) => {
      const response = await attachments.response({ base: 'booking-keys', bookingKey }, examSlug === '' ? [] : [examSlug]);
      return response.documents.find((document) => document.documentTypeCode === 'REFERRAL')?.documentTypeId ?? null;
    },
    upload: async (bookingKey, file, documentTypeId, onProgress) => {
      await attachments.upload({ base: 'booking-keys', bookingKey }, file, documentTypeId === null ? {} : { documentTypeId }, onProgress);
    },
    createRequest: (body, idempotencyKey) => booking.createBookingRequests(body, idempotencyKey),
    uuid: () => randomUuid(win.crypto),
    today: () => localToday(new Date()),
  });
}
