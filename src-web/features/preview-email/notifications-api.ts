import {
  EMAIL_PREVIEW_HTML_PATH,
  EMAIL_PREVIEW_OPTIONS_PATH,
  EMAIL_PREVIEW_PATH,
  EMAIL_TEST_SEND_PATH,
  EmailPreviewOptionsSchema,
  EmailPreviewSchema,
  EmailTestSentSchema,
  type EmailPreview,
  type EmailPreviewOptions,
  type EmailPreviewQuery,
  type EmailTestSent,
} from '@contract/api/notifications';
import type { ApiClient } from '../../api/client';
import { parseResponse } from '../../api/parse-response';

/** Typed calls of /api/notifications/* (src-contract/api/notifications.ts). */
export function createNotificationsApi(client: ApiClient) {
  const { http } = client;
  return {
    /** The e-mail rendered for staff (staff session; nothing is sent). */
    previewEmail: async (query: EmailPreviewQuery): Promise<EmailPreview> =>
      parseResponse(
        EMAIL_PREVIEW_PATH,
        EmailPreviewSchema,
        (await http.get<unknown>(EMAIL_PREVIEW_PATH, { params: query, staffSession: true })).data,
      ),

    /** Where the same preview's HTML is a page of its own, for a sandboxed frame (the mail's inline styles allowed there). */
    previewHtmlUrl: (query: EmailPreviewQuery): string =>
      http.getUri({ url: EMAIL_PREVIEW_HTML_PATH, params: { template: query.template, lang: query.lang, referenceId: query.referenceId } }),

    /** The preview page's pickers: templates, languages, recent records (staff session). */
    previewOptions: async (): Promise<EmailPreviewOptions> =>
      parseResponse(
        EMAIL_PREVIEW_OPTIONS_PATH,
        EmailPreviewOptionsSchema,
        (await http.get<unknown>(EMAIL_PREVIEW_OPTIONS_PATH, { staffSession: true })).data,
      ),

    /** Sends the previewed mail to the signed-in staff member's own address (staff session; a few an hour). */
    sendTest: async (query: EmailPreviewQuery): Promise<EmailTestSent> =>
      parseResponse(
        EMAIL_TEST_SEND_PATH,
        EmailTestSentSchema,
        (await http.post<unknown>(EMAIL_TEST_SEND_PATH, query, { staffSession: true })).data,
      ),
  };
}

export type NotificationsApi = ReturnType<typeof createNotificationsApi>;
