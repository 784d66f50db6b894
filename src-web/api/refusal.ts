import { ApiError } from './client';

/**
 * How pages read a refused request (docs/web.md#api-client). Branch on `error.code` for a
 * refusal the page handles in its own way; these two cover what every page shares.
 */

/** A 401: the client's 401 rule has sent the user to sign in already, so the page shows no error of its own. */
export function isSignInNeeded(error: unknown): boolean {
  return error instanceof ApiError && error.kind === 'http' && error.status === 401;
}

/**
 * The server's own wording of a refused request (a 4xx that carried its `{ code, message }` body),
 * shown as it is; '' for anything else (no answer, a 5xx, a body not the server's), where the page
 * shows its own text.
 */
export function refusalMessage(error: unknown): string {
  if (!(error instanceof ApiError) || error.kind !== 'http' || error.status < 400 || error.status >= 500) return '';
  return error.message.startsWith(UNEXPLAINED_REFUSAL) ? '' : error.message;
}

/** The start of the message toApiError gives an answer without the server's body. */
const UNEXPLAINED_REFUSAL = 'Request failed with status';
