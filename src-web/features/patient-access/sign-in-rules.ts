/**
 * The sign-in form's rules that need no store (docs/rules/patient-access.md#sign-in): field
 * patterns, the date check, and how a 429's details and the shared flag are read.
 */

/** Six digits, exactly. */
export const OTP_PATTERN = /^\d{6}$/;
/** Digits only, at most 10. */
export const CONTACT_NUMBER_PATTERN = /^\d{1,10}$/;
/** Seconds between resends when the app config does not say. */
export const DEFAULT_OTP_RESEND_SECONDS = 5;

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar date in YYYY-MM-DD, from 1900 on. */
export function isCalendarDate(value: string): boolean {
  const match = DATE_PATTERN.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1900) return false;
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** The /deny page's maxAttempts value for a 429 max_attempts_reached (names it knows, else true). */
export function maxAttemptsName(details: unknown): string {
  const named =
    typeof details === 'object' && details !== null && 'maxAttempts' in details && typeof details.maxAttempts === 'string'
      ? details.maxAttempts
      : '';
  return ['max_attempts_reached', 'max_attempts_reached_shared', 'max_attempts_reached_results'].includes(named) ? named : 'true';
}

/** details.retryAfterSeconds of a 429 (whole seconds, at least 1), or null when the answer names none. */
export function retryAfterSeconds(details: unknown): number | null {
  const seconds =
    typeof details === 'object' && details !== null && 'retryAfterSeconds' in details && typeof details.retryAfterSeconds === 'number'
      ? details.retryAfterSeconds
      : NaN;
  return Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds) : null;
}

/** The return URL with shared=true added (the shared flag). */
export function withSharedFlag(url: string): string {
  const hashAt = url.indexOf('#');
  const base = hashAt >= 0 ? url.slice(0, hashAt) : url;
  const hash = hashAt >= 0 ? url.slice(hashAt) : '';
  const [path, query = ''] = base.split('?', 2) as [string, string?];
  const params = new URLSearchParams(query);
  params.set('shared', 'true');
  return `${path}?${params.toString()}${hash}`;
}

export function isEmbedded(url: string): boolean {
  return url === '/iframe' || url.startsWith('/iframe/') || url.startsWith('/iframe?');
}
