import { EMAIL_PREVIEW_HTML_PATH, EMAIL_PREVIEW_PATH, type EmailPreview, type EmailPreviewQuery } from '@contract/api/notifications';
import type { ApiClient } from './client';

/** Typed calls of /api/notifications/* (src-contract/api/notifications.ts). */
export function createNotificationsApi(client: ApiClient) {
  const { http } = client;
  return {
    /** The e-mail rendered for staff (staff session; nothing is sent). */
    previewEmail: async (query: EmailPreviewQuery): Promise<EmailPreview> =>
      (await http.get<EmailPreview>(EMAIL_PREVIEW_PATH, { params: query, staffSession: true })).data,

    /** Where the same preview's HTML is a page of its own, for a sandboxed frame (the mail's inline styles allowed there). */
    previewHtmlUrl: (query: EmailPreviewQuery): string =>
      http.getUri({ url: EMAIL_PREVIEW_HTML_PATH, params: { template: query.template, lang: query.lang, referenceId: query.referenceId } }),
  };
}

export type NotificationsApi = ReturnType<typeof createNotificationsApi>;
