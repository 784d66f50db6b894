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
