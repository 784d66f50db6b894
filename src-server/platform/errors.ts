import { ApiErrorBodySchema, type ErrorCode } from '@contract/errors';

/**
 * The one error type routes and services throw on purpose. The error handler in app.ts turns it
 * into `{ code, message, details? }` with `statusCode`; anything else becomes a generic 500.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly statusCode: number;
  readonly details: unknown;

  constructor(code: ErrorCode, statusCode: number, message: string, details?: unknown) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.statusCode = statusCode;
    this.details = details;
  }
}

/**
 * The error answers a route's schema declares, each with the one error body ({ code, message,
 * details? }): `response: { 200: X, ...errors }` with `const errors = errorAnswers(400, 401, 404)`,
 * so a route lists its status codes and never spells the body out again.
 */
export function errorAnswers<const Code extends number>(...codes: Code[]): Record<Code, typeof ApiErrorBodySchema> {
  return Object.fromEntries(codes.map((code) => [code, ApiErrorBodySchema])) as Record<Code, typeof ApiErrorBodySchema>;
}

export function appError(code: ErrorCode, statusCode: number, message: string, details?: unknown): AppError {
  return new AppError(code, statusCode, message, details);
}

export const badRequest = (message: string, details?: unknown, code: ErrorCode = 'bad_request'): AppError =>
  new AppError(code, 400, message, details);
/** 400 validation_failed naming the body field at fault (`body/<field>`), with any further problems after it. */
export function validationError(field: string, message: string, more: { in: string; message: string }[] = []): AppError {
  return badRequest(message, [{ in: `body/${field}`, message }, ...more], 'validation_failed');
}

export const unauthorized = (message = 'You need to sign in first.'): AppError => new AppError('unauthorized', 401, message);
export const forbidden = (message = 'You may not do that.'): AppError => new AppError('forbidden', 403, message);
export const notFound = (message: string, code: ErrorCode = 'not_found'): AppError => new AppError(code, 404, message);
export const conflict = (message: string, details?: unknown): AppError => new AppError('conflict', 409, message, details);
/**
 * The one way to refuse past a limit: 429 with the whole seconds to wait (at least 1) in
 * details.retryAfterSeconds, which the error handler in app.ts sends as Retry-After. The wait is
 * required, so every limit says when it lets the caller in again.
 */
export function tooManyRequests(
  message: string,
  retryAfterSeconds: number,
  options: { code?: ErrorCode; details?: Record<string, unknown> } = {},
): AppError {
  const seconds = Number.isFinite(retryAfterSeconds) ? Math.max(1, Math.ceil(retryAfterSeconds)) : 1;
  return new AppError(options.code ?? 'too_many_requests', 429, message, { ...options.details, retryAfterSeconds: seconds });
}

/**
 * Seconds until a sliding-window limit lets one more attempt in: until the oldest attempt still
 * counted (`oldest`) leaves the window of `windowMs` (the whole window when none is known).
 */
export function secondsUntilWindowFrees(oldest: Date | string | null, windowMs: number, now: Date): number {
  const oldestMs = oldest === null ? now.getTime() : new Date(oldest).getTime();
  const waitMs = Math.min(windowMs, Math.max(0, oldestMs + windowMs - now.getTime()));
  return Math.max(1, Math.ceil(waitMs / 1000));
}
export const serviceUnavailable = (message = 'The service is unavailable right now; try again shortly.'): AppError =>
  new AppError('service_unavailable', 503, message);

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}

/**
 * The seconds a 429 asks the client to wait (its details.retryAfterSeconds), or null. The error
 * handler in app.ts sends it as the Retry-After header (every 429 built by tooManyRequests has it).
 */
export function retryAfterSeconds(error: unknown): number | null {
  if (!isAppError(error) || error.statusCode !== 429) return null;
  const details: unknown = error.details;
  if (typeof details !== 'object' || details === null || !('retryAfterSeconds' in details)) return null;
  const seconds = details.retryAfterSeconds;
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds) : null;
}
