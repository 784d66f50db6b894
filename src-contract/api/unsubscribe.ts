import { z } from 'zod';

/**
 * One-click unsubscribe from the portal's notification mails (docs/rules/notifications.md#unsubscribe).
 * Every mail carries a signed link naming its recipient (never the address itself): the footer
 * link opens the page, and the List-Unsubscribe header (RFC 8058) names the API, which a mail
 * provider POSTs to with the body `List-Unsubscribe=One-Click` and no cookies. The token is the
 * only credential; GET never changes anything (link scanners fetch every GET).
 */

/** GET: whom the link names and whether that address is unsubscribed. POST: unsubscribe (idempotent). */
export const UNSUBSCRIBE_API_PATH = '/api/notifications/unsubscribe';
/** POST: subscribe again ("Changed your mind?") with the same link. */
export const RESUBSCRIBE_API_PATH = '/api/notifications/unsubscribe/resubscribe';
/** The web page a mail's footer link opens: /unsubscribe?token=… (and under /iframe). */
export const UNSUBSCRIBE_PAGE_PATH = '/unsubscribe';

/** Long enough for any signed link (platform/signed-links MAX_TOKEN_LENGTH); the signature decides the rest. */
export const UNSUBSCRIBE_TOKEN_MAX_LENGTH = 1024;

export const UnsubscribeQuerySchema = z.strictObject({
  token: z
    .string()
    .min(1, 'token is required')
    .max(UNSUBSCRIBE_TOKEN_MAX_LENGTH, `token is at most ${UNSUBSCRIBE_TOKEN_MAX_LENGTH} characters`),
});
export type UnsubscribeQuery = z.infer<typeof UnsubscribeQuerySchema>;

/** RFC 8058's form body, the only one a mail provider sends. */
export const ONE_CLICK_FIELD = 'List-Unsubscribe';
export const ONE_CLICK_VALUE = 'One-Click';

/**
 * The unsubscribe POST's body: RFC 8058's form (`List-Unsubscribe=One-Click`, parsed to an
 * object), the same as JSON, or an empty JSON object (the portal's page); no body at all is
 * accepted too (some providers send none; Fastify reads it as null).
 */
export const UnsubscribeBodySchema = z
  .union([z.strictObject({ [ONE_CLICK_FIELD]: z.literal(ONE_CLICK_VALUE) }), z.strictObject({})])
  .nullish();

/** The resubscribe POST's body: an empty JSON object, or none. */
export const ResubscribeBodySchema = z.strictObject({}).nullish();

export const UnsubscribeStatusSchema = z.object({
  /** The address masked as the sign-in page masks it: l***@example.com. */
  address: z.string(),
  /** True once the address is unsubscribed (by this link, another mail's, or the appointment page). */
  unsubscribed: z.boolean(),
});
export type UnsubscribeStatus = z.infer<typeof UnsubscribeStatusSchema>;
