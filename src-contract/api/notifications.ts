import { z } from 'zod';
import { SUPPORTED_LOCALES } from './locales';

/**
 * The e-mail preview for staff (docs/rules/notifications.md#e-mail-preview): the real template
 * rendered for one record in one locale, nothing sent. The server's template registry decides
 * which names exist (an unknown one is 400 validation_failed naming querystring/template).
 */

export const EMAIL_PREVIEW_PATH = '/api/notifications/preview_translated_email';
/** The same preview's HTML alone, as a page of its own for a sandboxed frame (its inline styles allowed). */
export const EMAIL_PREVIEW_HTML_PATH = '/api/notifications/preview_translated_email/html';

/** A template's name as the registry spells it (snake_case, like the outbox kinds). */
export const EmailTemplateNameSchema = z.string().regex(/^[a-z][a-z0-9_]{0,63}$/, 'expected a template name such as booking_confirmation');

/** An appointment's id (UUID) or a booking key. */
export const EmailReferenceIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'expected an appointment id or a booking key');

export const EmailPreviewQuerySchema = z.strictObject({
  template: EmailTemplateNameSchema,
  lang: z.enum(SUPPORTED_LOCALES, { message: `lang must be one of ${SUPPORTED_LOCALES.join(', ')}` }),
  referenceId: EmailReferenceIdSchema,
});
export type EmailPreviewQuery = z.infer<typeof EmailPreviewQuerySchema>;

export const EmailPreviewSchema = z.object({
  subject: z.string(),
  html: z.string(),
  text: z.string(),
});
export type EmailPreview = z.infer<typeof EmailPreviewSchema>;

/** What the preview page offers: every template, every language, recent records to preview with (staff). */
export const EMAIL_PREVIEW_OPTIONS_PATH = '/api/notifications/preview_options';
/** Sends the previewed mail to the signed-in staff member's own address through the mail outbox (staff; limited). */
export const EMAIL_TEST_SEND_PATH = '/api/notifications/preview_translated_email/send_test';

/** The record a template is rendered from: a booking (an appointment's id), a booking request's id or a report's id. */
export const PREVIEW_REFERENCE_KINDS = ['booking', 'booking_request', 'report'] as const;
export type PreviewReferenceKind = (typeof PREVIEW_REFERENCE_KINDS)[number];

export const PreviewReferenceSchema = z.object({ id: EmailReferenceIdSchema, label: z.string() });
export type PreviewReference = z.infer<typeof PreviewReferenceSchema>;

export const EmailPreviewOptionsSchema = z.object({
  templates: z.array(z.object({ name: EmailTemplateNameSchema, reference: z.enum(PREVIEW_REFERENCE_KINDS) })),
  languages: z.array(z.enum(SUPPORTED_LOCALES)),
  references: z.object({
    booking: z.array(PreviewReferenceSchema),
    booking_request: z.array(PreviewReferenceSchema),
    report: z.array(PreviewReferenceSchema),
  }),
});
export type EmailPreviewOptions = z.infer<typeof EmailPreviewOptionsSchema>;

/** The body of a test send: the same three values as the preview's query. */
export const EmailTestSendSchema = EmailPreviewQuerySchema;
export type EmailTestSend = EmailPreviewQuery;

export const EmailTestSentSchema = z.object({
  /** The staff member's own address, where the mail went. */
  recipient: z.string(),
  subject: z.string(),
});
export type EmailTestSent = z.infer<typeof EmailTestSentSchema>;

/** Test mails one staff member may send per hour. */
export const EMAIL_TESTS_PER_HOUR = 5;
