import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import type { ApiErrorBody, ErrorCode } from '@contract/errors';
import { CONTROL_CHARACTER_MESSAGE } from '@contract/api/text';
import { isDatabaseUnavailableError } from '../db/connection';
import { isApiPath } from './api-path';
import { isAppError, retryAfterSeconds } from './errors';
import { isMultipartParseError, MALFORMED_MULTIPART } from './multipart-errors';
import { refusalRedirect } from './served-file';
import { createWebAppHandler, type WebAppOptions } from './web-app';

/**
 * One error shape for every failure, `{ code, message, details? }` (src-contract/errors.ts), and
 * the web app for every page no route answers (docs/server.md#errors).
 */

export const GENERIC_MESSAGES: Record<number, { code: ErrorCode; message: string }> = {
  400: { code: 'bad_request', message: 'The request is not valid.' },
  401: { code: 'unauthorized', message: 'You need to sign in first.' },
  403: { code: 'forbidden', message: 'You may not do that.' },
  404: { code: 'not_found', message: 'Not found.' },
  405: { code: 'method_not_allowed', message: 'This method is not allowed here.' },
  413: { code: 'payload_too_large', message: 'The request body is too large.' },
  415: { code: 'unsupported_media_type', message: 'This content type is not accepted here.' },
  429: { code: 'too_many_requests', message: 'Too many requests; try again later.' },
  503: { code: 'service_unavailable', message: 'The service is unavailable right now; try again shortly.' },
};
/** Retry-After for a 429 that names no wait of its own (one from a Fastify plugin). */
export const DEFAULT_RETRY_AFTER_SECONDS = 60;
const INTERNAL: ApiErrorBody = { code: 'internal_error', message: 'Something went wrong on our side. Please try again.' };

/** Maps any error to a status and a body that is safe to show: no stack, SQL or paths. */
export function toErrorResponse(error: FastifyError | Error): { status: number; body: ApiErrorBody } {
  if (hasZodFastifySchemaValidationErrors(error)) {
    return {
      status: 400,
      body: {
        code: 'validation_failed',
        // Control characters get their own message, so a form showing the message says what to fix.
        message: error.validation.some((issue) => issue.message === CONTROL_CHARACTER_MESSAGE)
          ? CONTROL_CHARACTER_MESSAGE
          : 'Some values in the request are not valid.',
        details: error.validation.map((issue) => ({
          in: issue.instancePath === '' ? error.validationContext : `${error.validationContext}${issue.instancePath}`,
          message: issue.message,
        })),
      },
    };
  }
  if (isAppError(error)) {
    return {
      status: error.statusCode,
      body: { code: error.code, message: error.message, ...(error.details === undefined ? {} : { details: error.details }) },
    };
  }
  const code = 'code' in error && typeof error.code === 'string' ? error.code : '';
  if (code === 'FST_ERR_CTP_INVALID_JSON_BODY' || code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
    return { status: 400, body: { code: 'invalid_json', message: 'The request body is not valid JSON.' } };
  }
  // A multipart body that cannot be parsed (no boundary, cut short): 400, whichever route read it.
  if (isMultipartParseError(error)) return { status: 400, body: MALFORMED_MULTIPART };
  if (isResponseSerializationError(error)) return { status: 500, body: INTERNAL };
  if (isDatabaseUnavailableError(error)) {
    return { status: 503, body: GENERIC_MESSAGES[503] ?? INTERNAL };
  }
  const status = 'statusCode' in error && typeof error.statusCode === 'number' ? error.statusCode : 500;
  // Fastify's own 4xx errors get a fixed message: theirs can quote the URL (FST_ERR_BAD_URL).
  if (status >= 400 && status < 500) {
    const generic = GENERIC_MESSAGES[status] ?? GENERIC_MESSAGES[400];
    if (generic !== undefined) return { status, body: generic };
  }
  return { status: 500, body: INTERNAL };
}

/** The one error handler, and the not-found handler: the web app for pages, a JSON 404 for /api. */
export function registerErrorAnswers(app: FastifyInstance, webAppOptions: WebAppOptions): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const { status, body } = toErrorResponse(error);
    // 507 is a deliberate refusal (a storage budget is full; its warning was logged when it filled), not a failure.
    if (status >= 500 && status !== 507) {
      request.log.error({ err: error, statusCode: status }, 'request failed');
    } else {
      // Only the code: client error messages can quote what was sent (names, dates of birth).
      request.log.info({ code: body.code, statusCode: status }, 'request rejected');
    }
    // Headers a handler set for a success (an image's cache lifetime) do not apply to an error.
    reply.removeHeader('cache-control').removeHeader('etag').removeHeader('content-length');
    // Every 429 says when to come back: the limit's own wait, else (a plugin's 429) a default.
    const wait = retryAfterSeconds(error) ?? (status === 429 ? DEFAULT_RETRY_AFTER_SECONDS : null);
    if (wait !== null) reply.header('retry-after', String(wait));
    const page = refusalRedirect(request, status, body.code);
    if (page !== null) return reply.header('cache-control', 'no-store').redirect(page, 303);
    return reply.code(status).header('content-type', 'application/json; charset=utf-8').send(body);
  });

  const webApp = createWebAppHandler(webAppOptions);
  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url;
    if (!isApiPath(path) && (request.method === 'GET' || request.method === 'HEAD')) {
      await webApp(request, reply);
      return;
    }
    const body: ApiErrorBody = isApiPath(path)
      ? { code: 'route_not_found', message: `There is no API operation ${request.method} at this path.` }
      : { code: 'method_not_allowed', message: 'Pages accept only GET.' };
    if (!isApiPath(path)) reply.header('allow', 'GET, HEAD');
    await reply.code(isApiPath(path) ? 404 : 405).send(body);
  });
}
