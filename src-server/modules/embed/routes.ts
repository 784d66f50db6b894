import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { EmbedParentOriginQuerySchema, EmbedParentOriginResponseSchema } from '@contract/api/embed';
import { ApiErrorBodySchema } from '@contract/errors';
import type { SecurityPolicySources } from '../../platform/plugins/security-headers';

/**
 * Embedding (docs/embedding.md): the providers' script tag (GET /embed.js) and the question the
 * framed portal asks before it posts its height to the page around it.
 */

export const EMBED_SCRIPT_FILE = fileURLToPath(new URL('../../../resources/embed/embed.js', import.meta.url));

/**
 * Providers link /embed.js without a version, so it cannot be immutable: an hour in caches, then
 * revalidated with the ETag, so a new release reaches every provider's page within the hour.
 */
export const EMBED_SCRIPT_CACHE_CONTROL = 'public, max-age=3600, must-revalidate';

export interface EmbedRoutesOptions {
  /** The allowed embedding origins: the same list as the frame-ancestors header. */
  sources: () => Promise<SecurityPolicySources>;
  /** PUBLIC_URL: the portal frames itself too (frame-ancestors 'self', the /iframe-test page). */
  publicUrl: string;
  scriptFile?: string;
}

export function registerEmbedRoutes(app: FastifyInstance, options: EmbedRoutesOptions): void {
  // Read once: the script is part of the release, not of the configuration.
  const script = readFileSync(options.scriptFile ?? EMBED_SCRIPT_FILE);
  const selfOrigin = new URL(options.publicUrl).origin;
  const etag = `"${createHash('sha256').update(script).digest('base64url').slice(0, 27)}"`;

  app.get('/embed.js', { config: { access: 'public' }, schema: { hide: true } }, async (request, reply) => {
    reply
      .header('content-type', 'text/javascript; charset=utf-8')
      .header('cache-control', EMBED_SCRIPT_CACHE_CONTROL)
      .header('etag', etag)
      // Loaded by the provider's pages, on another origin.
      .header('cross-origin-resource-policy', 'cross-origin');
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    return reply.send(script);
  });

  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/embed/parent-origin',
    {
      config: { access: 'public' },
      schema: {
        tags: ['embed'],
        summary: 'Whether a page on this origin may embed the portal (and so receive its height messages)',
        querystring: EmbedParentOriginQuerySchema,
        response: { 200: EmbedParentOriginResponseSchema, 400: ApiErrorBodySchema },
      },
    },
    async (request) => {
      const { origin } = request.query;
      if (origin === selfOrigin) return { allowed: true };
      const { frameAncestors } = await options.sources();
      return { allowed: frameAncestors.includes(origin) };
    },
  );
}
