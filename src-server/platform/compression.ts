import fastifyCompress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/**
 * Response compression for the API (the web app's files compress themselves: web-app.ts).
 * Only routes that opt in with `compress: PUBLIC_COMPRESSION` are compressed: public answers
 * that carry nothing personal or secret (catalogue, configuration, glossary). A compressed
 * answer that mixed a secret with text the client chose would leak the secret through its
 * length (BREACH), so personal and signed-in answers stay as they are.
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(fastifyCompress, {
    global: false,
    encodings: ['br', 'gzip'],
    // Below about 1 KB the headers cost more than compression saves.
    threshold: 1024,
    // Plain request bodies only: the API takes no compressed uploads.
    globalDecompression: false,
  });
}

/** The route option for a public answer worth compressing. */
export const PUBLIC_COMPRESSION = {};
