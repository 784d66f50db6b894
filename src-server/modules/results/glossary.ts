import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { GlossarySchema, type Glossary } from '@contract/api/results-glossary';
import { DEMO_PROVIDER_DIR } from '../../db/seed/demo-provider';
import { PUBLIC_COMPRESSION } from '../../platform/compression';

/**
 * The provider's glossary of radiology terms (docs/rules/results.md#glossary). Not patient data:
 * anyone may read it, and browsers and proxies may keep it a day (an ETag answers 304 after).
 * The file is checked against the contract once, when first asked for; a broken file is a
 * server error the logs name, never a half glossary.
 */

export const GLOSSARY_FILE = path.join(DEMO_PROVIDER_DIR, 'glossary.json');
const CACHE = 'public, max-age=86400';

export interface LoadedGlossary {
  glossary: Glossary;
  etag: string;
}

export async function loadGlossary(file: string = GLOSSARY_FILE): Promise<LoadedGlossary> {
  const parsed = GlossarySchema.safeParse(JSON.parse(await readFile(file, 'utf8')));
  if (!parsed.success) throw new Error(`[results] ${file} does not match the glossary contract: ${parsed.error.message}`);
  const seen = new Set<string>();
  for (const { term } of parsed.data.terms) {
    if (seen.has(term.toLowerCase())) throw new Error(`[results] ${file}: the term '${term}' is there twice`);
    seen.add(term.toLowerCase());
  }
  const etag = `"${createHash('sha256').update(JSON.stringify(parsed.data)).digest('base64url').slice(0, 27)}"`;
  return { glossary: parsed.data, etag };
}

export function registerGlossaryRoute(app: FastifyInstance, load: () => Promise<LoadedGlossary> = () => loadGlossary()): void {
  let loaded: Promise<LoadedGlossary> | null = null;
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/results-glossary',
    {
      config: { access: 'public' },
      compress: PUBLIC_COMPRESSION,
      schema: {
        tags: ['results'],
        summary: "Anyone: the provider's glossary of radiology terms with plain-English definitions (cacheable for a day, ETag)",
        response: { 200: GlossarySchema, 304: z.null().describe('Not modified: the copy the browser has is current') },
      },
    },
    async (request, reply) => {
      loaded ??= load().catch((error: unknown) => {
        loaded = null;
        throw error;
      });
      const { glossary, etag } = await loaded;
      void reply.headers({ 'cache-control': CACHE, etag, vary: 'accept-encoding' });
      if (request.headers['if-none-match'] === etag) return reply.code(304).send(null);
      return glossary;
    },
  );
}
