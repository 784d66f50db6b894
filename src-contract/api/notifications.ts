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
