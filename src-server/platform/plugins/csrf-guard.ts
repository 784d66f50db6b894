import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors';
import { isDisguisedApiPath } from '../api-path';
import '../security-audit';

/**
 * Cross-site request forgery guard (docs/rules/security.md#csrf). The patient session cookie is
 * SameSite=None so it works inside a provider's iframe; that also means a browser would attach
 * it to a form another site posts to us. So, for every unsafe call, whatever its path (the router
 * decodes escapes, so a check on the raw path could be walked around with `/%61pi/...`):
 * - a browser that says the request is cross-site (Sec-Fetch-Site) or from a foreign Origin is
 *   refused (the portal inside an iframe still calls from its own origin);
 * - a call that carries a session cookie (patient or staff) must also carry the custom header the web client
 *   always sends (X-Requested-With): a plain HTML form cannot set it, and a script on another
 *   origin cannot without a CORS preflight, which we never grant;
 * - bodies must be JSON or multipart: the text/plain parser (the one content type a form can
 *   send that Fastify would parse) is removed, so such a request gets 415. (One route takes a plain
 *   form, its body ignored: the development outbox's report button, loopback only,
 *   modules/notifications/dev-outbox-hl7.ts; the two checks above still apply to it.)
 * And any request whose path reaches /api only through an escape, another case or an extra slash
 * is refused with 400 before its route runs: nothing the portal sends looks like that.
 */

export const CSRF_HEADER = 'x-requested-with';
export const CSRF_HEADER_VALUE = 'XMLHttpRequest';
const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const SAME_ORIGIN_FETCH_SITES = new Set(['same-origin', 'none']);

export interface CsrfGuardOptions {
  /** The portal's public origin (PUBLIC_URL); an Origin naming the request's own Host is accepted too. */
  publicOrigin: string;
  /** The session cookies (patient, staff) whose presence makes a request "cookie-authenticated". */
  sessionCookieNames: readonly string[];
}

function hasCookie(request: FastifyRequest, name: string): boolean {
  const header = request.headers.cookie;
  if (header === undefined) return false;
  return header.split(';').some((part) => part.trim().startsWith(`${name}=`));
}

/** Whether an Origin names the host the request was sent to (default ports normalised; 'null' never does). */
export function sameHost(origin: string, host: string | undefined): boolean {
  if (host === undefined || host === '') return false;
  try {
    const from = new URL(origin);
    return from.host !== '' && from.host === new URL(`${from.protocol}//${host}`).host;
  } catch {
    return false;
  }
}

/** Why an unsafe request (to any path) is refused, or null when it may go on. */
export function csrfRefusal(request: FastifyRequest, options: CsrfGuardOptions): string | null {
  if (!UNSAFE_METHODS.has(request.method)) return null;
  const fetchSite = request.headers['sec-fetch-site'];
  if (typeof fetchSite === 'string' && !SAME_ORIGIN_FETCH_SITES.has(fetchSite)) return 'cross-site';
  const origin = request.headers.origin;
  if (origin !== undefined && origin !== options.publicOrigin && !sameHost(origin, request.headers.host)) return 'foreign origin';
  if (options.sessionCookieNames.some((name) => hasCookie(request, name)) && request.headers[CSRF_HEADER] !== CSRF_HEADER_VALUE)
    return 'missing header';
  return null;
}

export function registerCsrfGuard(app: FastifyInstance, options: CsrfGuardOptions): void {
  app.removeContentTypeParser('text/plain');
  app.addHook('onRequest', async (request) => {
    // One reading of the path for everything (api-path.ts): a disguised /api prefix is never the portal's.
    if (isDisguisedApiPath(request.url)) throw new AppError('bad_request', 400, 'The request is not valid.');
    const refusal = csrfRefusal(request, options);
    if (refusal !== null) {
      // Audited (rate-limited, never throws) before the refusal: src-server/platform/security-audit.ts.
      const params = request.params as { bookingKey?: unknown } | undefined;
      await request.server.securityAudit.refused(request, { reason: `csrf_${refusal.replace(/ /g, '_')}`, bookingKey: params?.bookingKey });
      throw new AppError('forbidden', 403, 'This request was refused because it did not come from the portal itself.');
    }
  });
}
