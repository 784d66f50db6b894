import { EMAIL_PREVIEW_PATH, type EmailPreview, type EmailPreviewQuery } from '@contract/api/notifications';
import type { ApiClient } from './client';

/** Typed calls of /api/notifications/* (src-contract/api/notifications.ts). */
export function createNotificationsApi(client: ApiClient) {
  const { http } = client;
  return {
    /** The e-mail rendered for staff (staff session; nothing is sent). */
    previewEmail: async (query: EmailPreviewQuery): Promise<EmailPreview> =>
      (await http.get<EmailPreview>(EMAIL_PREVIEW_PATH, { params: query, staffSession: true })).data,
  };
}

export type NotificationsApi = ReturnType<typeof createNotificationsApi>;
