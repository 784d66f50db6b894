import type { ApiErrorBody } from '@contract/errors';

/**
 * A multipart body the parser cannot read is the client's fault: 400 with a clear message, never
 * a 500 (docs/rules/security.md#input). Matched here once, for every upload route, by the codes
 * of @fastify/multipart and the messages of busboy (@fastify/busboy and busboy), which carry no code.
 */

const MULTIPART_CODES: ReadonlySet<string> = new Set([
  'FST_INVALID_MULTIPART_CONTENT_TYPE',
  'FST_MP_PREMATURE_CLOSE',
  'FST_PROTO_VIOLATION',
  'FST_INVALID_JSON_FIELD_ERROR',
]);

const BUSBOY_MESSAGES: readonly RegExp[] = [
  /^Multipart: Boundary not found$/,
  /^Boundary required$/,
  /^Unexpected end of (multipart data|form)$/,
  /terminated early due to unexpected end of multipart data$/,
  /^Malformed (part header|urlencoded form)$/,
  /^Unsupported Content-Type\.?$/,
  /^Missing Content-Type-header\.?$/,
];

export const MALFORMED_MULTIPART: ApiErrorBody = {
  code: 'bad_request',
  message: 'The upload could not be read: the form data is incomplete or malformed. Please try again.',
};

/** True for an error raised while reading a multipart body. */
export function isMultipartParseError(error: Error): boolean {
  const code = 'code' in error && typeof error.code === 'string' ? error.code : '';
  if (MULTIPART_CODES.has(code)) return true;
  // busboy's own errors are plain Errors (no code, no statusCode).
  if (code !== '' || 'statusCode' in error) return false;
  return BUSBOY_MESSAGES.some((pattern) => pattern.test(error.message));
}
