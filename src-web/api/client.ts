import axios, { isAxiosError, isCancel, type AxiosInstance } from 'axios';
import type { ErrorCode } from '@contract/errors';

declare module 'axios' {
  interface AxiosRequestConfig {
    /**
     * Marks the "am I still signed in?" call. A 401 on it means the session ended and the
     * patient must sign in again (docs/rules/patient-access.md#logout-on-401), so it triggers re-authentication instead
     * of the plain logout every other 401 causes.
     */
    authCheck?: boolean;
    /**
     * Marks the sign-in calls (date of birth, one-time password). A 401 on them is a wrong
     * answer from the patient, not a lost session, so the 401 rule leaves the session alone.
     */
    signIn?: boolean;
    /**
     * Marks calls behind the staff session (docs/rules/staff-access.md). Their 401 means no staff
     * sign-in, which says nothing about a patient's session, so the 401 rule leaves that alone.
     */
    staffSession?: boolean;
    /**
     * Marks calls behind a contact's shared-results session (docs/rules/results.md#sharing). Their
     * 401 sends the contact to sign in with the share link, which the shared results page does
     * itself; it says nothing about a patient's booking session, so the 401 rule leaves that alone.
     */
    sharedSession?: boolean;
    /** Set on the one repeat of a request the server refused with captcha_required. */
    captchaRetried?: boolean;
  }
}

/** How the request failed: the server answered, nothing answered, or we cancelled it. */
export type ApiErrorKind = 'http' | 'network' | 'canceled';

/** The one error type the web app sees from the API: the server's `{ code, message }`, typed. */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly kind: ApiErrorKind,
    /** HTTP status; 0 when no response arrived. */
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

/**
 * How the client answers 403 captcha_required (docs/rules/security.md#proof-of-work-check): when
 * `enabled()` (never on the kiosk), it solves the check, with `checking` true meanwhile so the
 * page can say so, and repeats the request once with the answer.
 */
export interface CaptchaHandlers {
  enabled(): boolean;
  checking(active: boolean): void;
}

/** What the client calls when the server says 401; the SessionStore provides it. */
export interface SessionHandlers {
  logout(): void;
  reauthenticate(): void;
}

const CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'too_many_requests',
  503: 'service_unavailable',
};

function codeForStatus(status: number): ErrorCode {
  return CODE_BY_STATUS[status] ?? (status >= 500 ? 'internal_error' : 'bad_request');
}

function isJsonType(contentType: string): boolean {
  return /^application\/([\w.+-]+\+)?json\b/i.test(contentType.trim());
}

/**
 * Reads an error body that may arrive as a Blob (downloads use responseType 'blob', so a
 * JSON error comes back as a Blob of JSON type), a string, or already parsed JSON.
 */
async function readErrorBody(data: unknown, contentType: string): Promise<unknown> {
  if (typeof Blob !== 'undefined' && data instanceof Blob) {
    if (!isJsonType(data.type || contentType)) return null;
    return parseJson(await readBlobText(data));
  }
  if (typeof data === 'string') return isJsonType(contentType) || data.startsWith('{') ? parseJson(data) : null;
  return data;
}

/** Blob.text() is missing in older browsers (Safari before 14) and in jsdom; FileReader is everywhere. */
function readBlobText(blob: Blob): Promise<string> {
  if (typeof blob.text === 'function') return blob.text();
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result : '');
    reader.onerror = () => reject(reader.error ?? new Error('could not read the error body'));
    reader.readAsText(blob);
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/**
 * Converts anything a request can throw into an ApiError. The server's `{ code, message }`
 * body is used when it matches the contract, otherwise the status decides the code.
 */
export async function toApiError(error: unknown): Promise<ApiError> {
  if (error instanceof ApiError) return error;
  if (isCancel(error)) return new ApiError('canceled', 0, 'bad_request', 'The request was cancelled');
  if (!isAxiosError(error)) {
    const message = error instanceof Error ? error.message : 'Unexpected error';
    return new ApiError('network', 0, 'internal_error', message);
  }
  const response = error.response;
  if (!response) return new ApiError('network', 0, 'service_unavailable', error.message || 'No response from the server');
  const contentType = String(response.headers['content-type'] ?? '');
  // The schema (and zod with it) loads only when a request has failed: zod is about 24 KB
  // gzipped, more than the booking home can afford before it is interactive.
  const [data, { ApiErrorBodySchema }] = await Promise.all([readErrorBody(response.data, contentType), import('@contract/errors')]);
  const body = ApiErrorBodySchema.safeParse(data);
  if (body.success) return new ApiError('http', response.status, body.data.code, body.data.message, body.data.details);
  return new ApiError('http', response.status, codeForStatus(response.status), `Request failed with status ${response.status}`);
}

export interface ApiClient {
  readonly http: AxiosInstance;
  /** Connects the 401 rule to the session (null disconnects it). */
  setSessionHandlers(handlers: SessionHandlers | null): void;
  /** Connects the captcha rule to the page (null disconnects it: refusals then reach the caller). */
  setCaptchaHandlers(handlers: CaptchaHandlers | null): void;
}

/**
 * The one axios instance of the web app. Same-origin by default ('/'), cookies included
 * (the session is an HttpOnly cookie), every failure rejected as an ApiError.
 *
 * @param baseURL - '/' in the app; tests point it at a real local server.
 */
export function createApiClient(baseURL = '/'): ApiClient {
  // The server refuses cookie-carrying unsafe calls without this header (CSRF guard,
  // src-server/platform/plugins/csrf-guard.ts): a form on another site cannot send it.
  const csrf = { 'X-Requested-With': 'XMLHttpRequest' };
  const http = axios.create({ baseURL, withCredentials: true, headers: { post: csrf, put: csrf, patch: csrf, delete: csrf } });
  let session: SessionHandlers | null = null;
  let captcha: CaptchaHandlers | null = null;

  http.interceptors.response.use(undefined, async (error: unknown) => {
    const apiError = await toApiError(error);
    const config = isAxiosError(error) ? error.config : undefined;
    if (apiError.code === 'captcha_required' && config !== undefined && config.captchaRetried !== true && captcha?.enabled() === true) {
      const handlers = captcha;
      let header: { name: string; value: string } | null = null;
      handlers.checking(true);
      try {
        const { CAPTCHA_HEADER, solveCaptcha } = await import('./captcha');
        header = { name: CAPTCHA_HEADER, value: await solveCaptcha(http) };
      } catch {
        header = null;
      } finally {
        handlers.checking(false);
      }
      if (header === null) throw apiError;
      config.headers.set(header.name, header.value);
      return http.request({ ...config, captchaRetried: true });
    }
    const signIn =
      isAxiosError(error) && (error.config?.signIn === true || error.config?.staffSession === true || error.config?.sharedSession === true);
    if (apiError.kind === 'http' && apiError.status === 401 && !signIn) {
      const authCheck = isAxiosError(error) && error.config?.authCheck === true;
      if (authCheck) session?.reauthenticate();
      else session?.logout();
    }
    throw apiError;
  });

  return {
    http,
    setSessionHandlers(handlers) {
      session = handlers;
    },
    setCaptchaHandlers(handlers) {
      captcha = handlers;
    },
  };
}
