import { createReadStream } from 'node:fs';
import { readFile, realpath, stat } from 'node:fs/promises';
import { extname, join, relative, isAbsolute, sep } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { BootstrapConfig } from '@contract/api/config';
import { renderFirstPaint } from './first-paint';
import { renderIndexHtml } from './index-html';
import { inlineStylesheets, readInlineStylesheets, type InlineStylesheet } from './inline-styles';

/**
 * Serves the built web app from WEB_ROOT: hashed files under /assets/ with a year-long immutable
 * cache, other files of the build (robots.txt, icons) revalidated, and index.html, injected per
 * request, for every other page the client router handles. A small fs-stream route instead of
 * @fastify/static: we need exactly these rules and no directory listings.
 */

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.wasm': 'application/wasm',
};

export function contentTypeFor(path: string): string {
  return CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Text files worth compressing; images and fonts are compressed already. */
const COMPRESSIBLE = new Set(['.js', '.mjs', '.css', '.html', '.json', '.map', '.webmanifest', '.txt', '.svg']);
/** Below this, compression saves less than the header costs. */
const MIN_COMPRESS_BYTES = 1024;

export type Encoding = 'br' | 'gzip';

/** The best encoding the client accepts (brotli, then gzip), or null for identity. */
export function pickEncoding(acceptEncoding: string | undefined): Encoding | null {
  if (acceptEncoding === undefined) return null;
  const accepted = new Map<string, number>();
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [name = '', ...params] = part.trim().split(';');
    const q = params.map((param) => /^\s*q=([0-9.]+)\s*$/.exec(param)?.[1]).find((value) => value !== undefined);
    accepted.set(name.trim(), q === undefined ? 1 : Number(q));
  }
  const weight = (name: Encoding): number => accepted.get(name) ?? accepted.get('*') ?? 0;
  if (weight('br') > 0) return 'br';
  if (weight('gzip') > 0) return 'gzip';
  return null;
}

/**
 * @param perRequest - a page compressed for every response uses faster settings than an asset
 *   compressed once and cached.
 */
async function compress(content: Buffer, encoding: Encoding, perRequest = false): Promise<Buffer> {
  return encoding === 'br'
    ? brotli(content, {
        params: {
          [zlibConstants.BROTLI_PARAM_QUALITY]: perRequest ? 5 : 9,
          [zlibConstants.BROTLI_PARAM_SIZE_HINT]: content.length,
        },
      })
    : gzipAsync(content, { level: perRequest ? 6 : 9 });
}

/**
 * Pages of the build served at an address of their own rather than as a file: the page the
 * identity provider returns to after staff sign-in (src-web/auth-redirect.html, docs/identity.md).
 */
const STATIC_PAGES: Readonly<Record<string, string>> = { '/auth/redirect': 'auth-redirect.html' };

export const WEB_NOT_BUILT_MESSAGE = 'The web app is not built: run npm run build:web';

export interface WebAppOptions {
  webRoot: string;
  /** SOURCE_MAPS=public: serve the build's *.map files; otherwise they answer 404 like a missing file. */
  sourceMapsPublic: boolean;
  bootstrap: () => Promise<BootstrapConfig>;
}

/** Does this request want a page (a browser navigation, or curl's catch-all Accept)? */
function acceptsHtml(request: FastifyRequest): boolean {
  const accept = request.headers.accept;
  return accept === undefined || accept.includes('text/html') || accept.trim() === '*/*';
}

/**
 * The URL path as a relative file path inside the web root, or null when it cannot name a
 * file there (traversal, NUL bytes, backslashes, hidden files, undecodable escapes).
 */
export function safeRelativePath(urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const segments = decoded.split('/').filter((segment) => segment !== '');
  if (segments.length === 0) return null;
  if (segments.some((segment) => segment === '.' || segment === '..' || segment.startsWith('.'))) return null;
  return segments.join(sep);
}

function inside(root: string, candidate: string): boolean {
  const rel = relative(root, candidate);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

interface CompressedFile {
  mtimeMs: number;
  body: Buffer;
}

/** Hashed assets never change, so each is compressed once; bounded so a huge build cannot grow it without limit. */
const MAX_COMPRESSED_ENTRIES = 500;

interface CachedTemplate {
  mtimeMs: number;
  text: string;
  stylesheets: InlineStylesheet[];
}

export function createWebAppHandler(options: WebAppOptions): (request: FastifyRequest, reply: FastifyReply) => Promise<void> {
  const indexPath = join(options.webRoot, 'index.html');
  let template: CachedTemplate | null = null;
  const compressed = new Map<string, CompressedFile>();

  async function compressedFile(file: string, mtimeMs: number, encoding: Encoding): Promise<Buffer> {
    const key = `${encoding}:${file}`;
    const cached = compressed.get(key);
    if (cached !== undefined && cached.mtimeMs === mtimeMs) return cached.body;
    const body = await compress(await readFile(file), encoding);
    if (compressed.size >= MAX_COMPRESSED_ENTRIES) compressed.clear();
    compressed.set(key, { mtimeMs, body });
    return body;
  }

  /** The template, re-read when the build replaced it; null when the web app is not built. */
  async function loadTemplate(): Promise<CachedTemplate | null> {
    let mtimeMs: number;
    try {
      mtimeMs = (await stat(indexPath)).mtimeMs;
    } catch {
      return null;
    }
    if (template === null || template.mtimeMs !== mtimeMs) {
      const text = await readFile(indexPath, 'utf8');
      template = { mtimeMs, text, stylesheets: await readInlineStylesheets(text, options.webRoot) };
    }
    return template;
  }

  async function serveFile(request: FastifyRequest, reply: FastifyReply, relativePath: string, immutable: boolean): Promise<boolean> {
    let root: string;
    let file: string;
    try {
      root = await realpath(options.webRoot);
      // realpath resolves symlinks, so a link inside the build cannot point outside it.
      file = await realpath(join(root, relativePath));
    } catch {
      return false;
    }
    if (!inside(root, file)) return false;
    const info = await stat(file);
    if (!info.isFile()) return false;
    reply
      .header('content-type', contentTypeFor(file))
      .header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache')
      .header('last-modified', info.mtime.toUTCString());
    if (COMPRESSIBLE.has(extname(file).toLowerCase()) && info.size >= MIN_COMPRESS_BYTES) {
      reply.header('vary', 'accept-encoding');
      const encoding = pickEncoding(request.headers['accept-encoding']);
      if (encoding !== null) {
        const body = await compressedFile(file, info.mtimeMs, encoding);
        await reply.header('content-encoding', encoding).header('content-length', body.length).send(body);
        return true;
      }
    }
    await reply.header('content-length', info.size).send(createReadStream(file));
    return true;
  }

  return async function webApp(request, reply) {
    const urlPath = request.url.split('?')[0] ?? '/';
    const relativePath = safeRelativePath(urlPath);
    const isAsset = urlPath.startsWith('/assets/');
    // A source map reveals the web app's source; the build keeps writing them for error-reporting uploads.
    const hiddenSourceMap = !options.sourceMapsPublic && relativePath !== null && extname(relativePath).toLowerCase() === '.map';

    const staticPage = Object.prototype.hasOwnProperty.call(STATIC_PAGES, urlPath) ? STATIC_PAGES[urlPath] : undefined;
    if (staticPage !== undefined && (await serveFile(request, reply, staticPage, false))) return;
    // index.html itself is only ever served injected.
    if (relativePath !== null && relativePath !== 'index.html' && !hiddenSourceMap) {
      if (await serveFile(request, reply, relativePath, isAsset)) return;
    }
    // A missing script or image must not come back as the HTML page (wrong type, confusing errors).
    if (isAsset || hiddenSourceMap || !acceptsHtml(request)) {
      await reply.code(404).header('content-type', 'text/plain; charset=utf-8').header('cache-control', 'no-store').send('Not found');
      return;
    }
    const loaded = await loadTemplate();
    if (loaded === null) {
      await reply
        .code(503)
        .header('content-type', 'text/plain; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(WEB_NOT_BUILT_MESSAGE);
      return;
    }
    const bootstrap = await options.bootstrap();
    const firstPaint = renderFirstPaint(bootstrap, { url: request.url, cookie: request.headers.cookie });
    const html = inlineStylesheets(
      renderIndexHtml(loaded.text, bootstrap, request.cspNonce, firstPaint),
      loaded.stylesheets,
      request.cspNonce,
    );
    reply.header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-store').header('vary', 'accept-encoding');
    // The page carries the whole configuration (several KB): worth a quick compression per request.
    const encoding = pickEncoding(request.headers['accept-encoding']);
    if (encoding === null) {
      await reply.send(html);
      return;
    }
    const body = await compress(Buffer.from(html), encoding, true);
    await reply.header('content-encoding', encoding).header('content-length', body.length).send(body);
  };
}
