import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { isApiPath, pathSegments } from '../api-path';

/**
 * Security headers on every response: pages, API answers, assets, 404s and errors
 * (docs/rules/security.md#headers). No X-Frame-Options: it cannot express an allow-list and
 * `DENY` would break the provider's embedding; CSP frame-ancestors does the job.
 */

export interface SecurityPolicySources {
  /** Origins besides our own that may frame the portal. */
  frameAncestors: readonly string[];
  /** Origins besides our own that the page may connect to (the error-reporting DSN's, the identity provider's). */
  connectSources: readonly string[];
  /** Origins besides our own the page may frame (the identity provider's, for MSAL's silent renewal). */
  frameSources?: readonly string[];
  /** Origins besides our own the page may load images from (the clinic map's tile server). */
  imageSources?: readonly string[];
  /** Google Analytics or Tag Manager is on with an id (docs/rules/analytics.md): their origins are added. */
  analytics?: boolean;
  /** The provider's chat service's script origin (docs/rules/chat.md#the-providers-chat-service): script, connect and frame. */
  chatServiceOrigin?: string | null;
}

/** Where gtag.js and gtm.js load from (script-src) when analytics or tracking is on. */
export const ANALYTICS_SCRIPT_ORIGINS: readonly string[] = ['https://www.googletagmanager.com'];
/** Where GA4 sends its hits (connect-src for beacons and fetch, img-src for pixels), regional hosts included. */
export const ANALYTICS_COLLECTION_ORIGINS: readonly string[] = [
  'https://*.google-analytics.com',
  'https://*.analytics.google.com',
  'https://*.googletagmanager.com',
];

declare module 'fastify' {
  interface FastifyRequest {
    /** Per-request CSP nonce; index.html puts it on its config script and antd's styles. */
    cspNonce: string;
  }
}

/**
 * The Content-Security-Policy header value.
 * @param styleNonce - on HTML pages, the nonce antd's runtime styles carry; null elsewhere.
 */
export function buildContentSecurityPolicy(sources: SecurityPolicySources, styleNonce: string | null): string {
  const list = (items: readonly string[]): string => items.map((item) => ` ${item}`).join('');
  const analytics = sources.analytics === true;
  const collection = analytics ? ANALYTICS_COLLECTION_ORIGINS : [];
  const chat = sources.chatServiceOrigin ? [sources.chatServiceOrigin] : [];
  return [
    "default-src 'self'",
    `script-src 'self'${list([...(analytics ? ANALYTICS_SCRIPT_ORIGINS : []), ...chat])}`,
    styleNonce === null ? "style-src 'self'" : `style-src 'self' 'nonce-${styleNonce}'`,
    `img-src 'self' data:${list([...(sources.imageSources ?? []), ...collection])}`,
    "font-src 'self' data:",
    `connect-src 'self'${list([...sources.connectSources, ...collection, ...chat])}`,
    `frame-src 'self'${list([...(sources.frameSources ?? []), ...chat])}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    `frame-ancestors 'self'${list(sources.frameAncestors)}`,
  ].join('; ');
}

/** First path segments (after /iframe) of pages no provider embeds: staff, referrer, kiosk and tool pages. */
const SELF_FRAMED_PAGES = new Set(['staff', 'check-in', 'preview-email', 'dev', 'image-viewer-access', 'demo-viewer', 'iframe-test']);

/**
 * Whether only the portal itself may frame the page at `url` (docs/rules/embedding.md#who-may-frame-the-portal).
 * A provider embeds the patient pages; staff, referrer, kiosk and development pages are never
 * embedded, so the provider's origins there would only let its site (or whoever takes it over)
 * overlay them. Read as the web app's router reads the path (decoded, any case), also under /iframe.
 */
export function framedBySelfOnly(url: string): boolean {
  const segments = pathSegments(url);
  const [first = '', second = '', third = ''] = segments[0] === 'iframe' ? segments.slice(1) : segments;
  if (first === 'api') return second === 'docs';
  if (SELF_FRAMED_PAGES.has(first) || first.startsWith('referrer') || first.startsWith('kiosk')) return true;
  // The appointment page as the kiosk shows it (/appointments/{bookingKey}/kiosk).
  return first === 'appointments' && third === 'kiosk';
}

export interface SecurityHeadersOptions {
  /** Must not reject: answer the last known sources when the database is unavailable. */
  sources: () => Promise<SecurityPolicySources>;
}

/** Sets every security header on one reply (used by the hook, and where hooks do not run). */
export function setSecurityHeaders(reply: FastifyReply, url: string, sources: SecurityPolicySources, nonce: string): void {
  const contentType = String(reply.getHeader('content-type') ?? '');
  const isHtml = contentType.startsWith('text/html');
  // Staff, referrer and kiosk pages are never framed by a provider and never load analytics or the chat service.
  const framing = framedBySelfOnly(url) ? { ...sources, frameAncestors: [], analytics: false, chatServiceOrigin: null } : sources;
  reply.header('content-security-policy', buildContentSecurityPolicy(framing, isHtml && nonce !== '' ? nonce : null));
  reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
  reply.header('x-content-type-options', 'nosniff');
  reply.header('referrer-policy', 'no-referrer');
  reply.header('cross-origin-opener-policy', 'same-origin');
  reply.removeHeader('x-powered-by');
  // API answers may hold personal data: never cached. Routes that serve cacheable assets
  // (images) set their own Cache-Control, which is kept.
  if (isApiPath(url) && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
}

/** Registers the headers as root-level hooks, so they apply to every route and handler. */
export function registerSecurityHeaders(app: FastifyInstance, options: SecurityHeadersOptions): void {
  app.decorateRequest('cspNonce', '');
  app.addHook('onRequest', async (request) => {
    request.cspNonce = randomBytes(16).toString('base64');
  });
  app.addHook('onSend', async (request, reply, payload) => {
    setSecurityHeaders(reply, request.url, await options.sources(), request.cspNonce);
    return payload;
  });
}
