import { z } from 'zod';

/**
 * Embedding the portal in a provider's page (docs/embedding.md): the framed portal asks whether
 * the page around it may receive its messages (its height) before it posts any.
 */

/** An http(s) origin such as https://www.example.com: scheme, host and port, no path. */
export const EmbedOriginSchema = z
  .string()
  .max(300)
  .regex(
    /^https?:\/\/(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:\d{1,5})?$/,
    'expected an http(s) origin such as https://www.example.com (lower case, no path, no trailing slash)',
  );

/** GET /api/embed/parent-origin?origin=… */
export const EmbedParentOriginQuerySchema = z.object({ origin: EmbedOriginSchema });

export const EmbedParentOriginResponseSchema = z.object({
  /** The origin is one of the provider's embedding origins (EMBED_ORIGINS or the database's list). */
  allowed: z.boolean(),
});
export type EmbedParentOriginResponse = z.infer<typeof EmbedParentOriginResponseSchema>;
