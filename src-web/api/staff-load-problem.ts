import { ApiError } from './client';

/** Why a staff or referrer page could not load: no session (401), a session without the role (403), or anything else. */
export type StaffLoadProblem = 'signInNeeded' | 'roleNeeded' | 'unavailable';

/** 401 asks for the staff sign-in, 403 for another role; no answer or a 5xx is a generic failure with Retry. */
export function staffLoadProblemOf(error: unknown): StaffLoadProblem {
  const status = error instanceof ApiError && error.kind === 'http' ? error.status : 0;
  return status === 401 ? 'signInNeeded' : status === 403 ? 'roleNeeded' : 'unavailable';
}
