import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';

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
