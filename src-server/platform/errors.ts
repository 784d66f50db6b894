import type { ErrorCode } from '@contract/errors';

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
export const tooManyRequests = (message: string): AppError => new AppError('too_many_requests', 429, message);
export const serviceUnavailable = (message = 'The service is unavailable right now; try again shortly.'): AppError =>
  new AppError('service_unavailable', 503, message);

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}

/**
 * The seconds a 429 asks the client to wait (its details.retryAfterSeconds), or null. The error
 * handler in app.ts sends it as the Retry-After header, so every 429 that knows it says it.
 */
export function retryAfterSeconds(error: unknown): number | null {
  if (!isAppError(error) || error.statusCode !== 429) return null;
  const details: unknown = error.details;
  if (typeof details !== 'object' || details === null || !('retryAfterSeconds' in details)) return null;
  const seconds = details.retryAfterSeconds;
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds) : null;
}
