import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Where a browser tab that opened a served file goes when the file is refused, instead of the
 * API's JSON error (a PDF link clicked after the share was revoked or the session ran out).
 */
export type RefusalPage = (refusal: { status: number; code: string; params: unknown }) => string | null;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Served-file routes only: the page for a refused document navigation (served-file.ts refusalRedirect). */
    refusalPage?: RefusalPage;
  }
}

/**
 * A top-level or frame navigation by the browser (a link or a typed address), not a script's
 * call: Fetch Metadata says so, and browsers without it send Accept text/html only then.
 */
export function isDocumentNavigation(request: FastifyRequest): boolean {
  const mode = request.headers['sec-fetch-mode'];
  if (mode !== undefined) return mode === 'navigate';
  return (request.headers.accept ?? '').includes('text/html');
}

/** The page a refused navigation to a served file is sent to, or null to answer with the JSON error. */
export function refusalRedirect(request: FastifyRequest, status: number, code: string): string | null {
  const page = request.routeOptions.config.refusalPage;
  if (page === undefined || status < 400 || status >= 500 || !isDocumentNavigation(request)) return null;
  return page({ status, code, params: request.params });
}

/** A served document can never run script or reach our origin's cookies, even opened directly. */
export const SERVED_FILE_POLICY = "sandbox; default-src 'none'; img-src 'self'; object-src 'self'; style-src 'unsafe-inline'";

/**
 * An onSend hook for routes that serve a stored file: after the global security-headers hook
 * (which sets the pages' policy), the file's own policy.
 */
export async function servedFilePolicy(_request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
  if (reply.statusCode === 200) reply.header('content-security-policy', SERVED_FILE_POLICY);
  return payload;
}

/**
 * Sends a stored PDF (with servedFilePolicy as the route's onSend): never cached, never sniffed.
 * @param contentDisposition - the header's value (attachments/file-names.ts contentDisposition).
 */
export function sendStoredPdf(reply: FastifyReply, pdf: { stream: Readable; size: number }, contentDisposition: string): FastifyReply {
  return reply
    .header('cache-control', 'private, no-store')
    .header('content-type', 'application/pdf')
    .header('content-length', String(pdf.size))
    .header('content-disposition', contentDisposition)
    .header('x-content-type-options', 'nosniff')
    .send(pdf.stream);
}
