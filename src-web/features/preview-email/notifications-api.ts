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
import { getParsed, postParsed } from '../../api/parsed-request';

/** Typed calls of /api/notifications/* (src-contract/api/notifications.ts). */
export function createNotificationsApi(client: ApiClient) {
  const { http } = client;
  return {
    /** The e-mail rendered for staff (staff session; nothing is sent). */
    previewEmail: async (query: EmailPreviewQuery): Promise<EmailPreview> =>
      getParsed(http, EMAIL_PREVIEW_PATH, EmailPreviewSchema, { params: query, staffSession: true }),

    /** Where the same preview's HTML is a page of its own, for a sandboxed frame (the mail's inline styles allowed there). */
    previewHtmlUrl: (query: EmailPreviewQuery): string =>
      http.getUri({ url: EMAIL_PREVIEW_HTML_PATH, params: { template: query.template, lang: query.lang, referenceId: query.referenceId } }),

    /** The preview page's pickers: templates, languages, recent records (staff session). */
    previewOptions: async (): Promise<EmailPreviewOptions> =>
      getParsed(http, EMAIL_PREVIEW_OPTIONS_PATH, EmailPreviewOptionsSchema, { staffSession: true }),

    /** Sends the previewed mail to the signed-in staff member's own address (staff session; a few an hour). */
    sendTest: async (query: EmailPreviewQuery): Promise<EmailTestSent> =>
      postParsed(http, EMAIL_TEST_SEND_PATH, EmailTestSentSchema, query, { staffSession: true }),
  };
}

export type NotificationsApi = ReturnType<typeof createNotificationsApi>;
