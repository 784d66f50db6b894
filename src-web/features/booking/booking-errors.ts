import { ApiError } from '../../api/client';

/**
 * What went wrong with a booking submission, as the web app words it (docs/rules/booking.md#failures):
 * 409 slot_taken / hold_expired has its own clear message and fresh times; 429 too_many_requests
 * says when to try again and offers the clinic's phone; a 403 captcha_required that reaches the
 * page (the kiosk never solves one) sends the patient to reception; 500 to 504 each have their
 * own text; 505 and above (and no answer at all) get the general text.
 */
export type BookingFailure =
  | { kind: 'slot_taken' }
  /** The booking limits refused it (docs/rules/booking.md#booking-limits); retryAt: when they free, if the server said. */
  | { kind: 'too_many'; retryAt: string | null }
  | { kind: 'ask_reception' }
  | { kind: 'invalid'; message: string }
  /** 400 questionnaire_required: the exams' safety questions were not answered (their run could not load). */
  | { kind: 'screening_required' }
  | { kind: 'server'; status: 500 | 501 | 502 | 503 | 504 }
  | { kind: 'general' };

const OWN_TEXT_STATUSES = [500, 501, 502, 503, 504] as const;
type OwnTextStatus = (typeof OWN_TEXT_STATUSES)[number];

function isOwnTextStatus(status: number): status is OwnTextStatus {
  return OWN_TEXT_STATUSES.some((known) => known === status);
}

/** The Retry-After seconds the server put in a 429's details, if any. */
function retryAfterSeconds(details: unknown): number | null {
  if (typeof details !== 'object' || details === null || !('retryAfterSeconds' in details)) return null;
  const seconds = details.retryAfterSeconds;
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0 ? seconds : null;
}

/** Maps an error from the appointment or booking-request call onto what the page shows; now: the app's clock. */
export function bookingFailure(error: unknown, now: () => Date = () => new Date()): BookingFailure {
  if (!(error instanceof ApiError) || error.kind !== 'http') return { kind: 'general' };
  const code: string = error.code;
  if (error.status === 409 && (code === 'slot_taken' || code === 'hold_expired')) return { kind: 'slot_taken' };
  if (error.status === 429) {
    const seconds = retryAfterSeconds(error.details);
    return { kind: 'too_many', retryAt: seconds === null ? null : new Date(now().getTime() + seconds * 1000).toISOString() };
  }
  if (error.status === 403 && code === 'captcha_required') return { kind: 'ask_reception' };
  if (error.status === 400 && code === 'questionnaire_required') return { kind: 'screening_required' };
  if (isOwnTextStatus(error.status)) return { kind: 'server', status: error.status };
  if (error.status >= 505) return { kind: 'general' };
  if (error.status >= 400 && error.status < 500) return { kind: 'invalid', message: error.message };
  return { kind: 'general' };
}

/** True when the failure is shown in the error modal (closing it reloads the times). */
export function isModalFailure(failure: BookingFailure): boolean {
  return failure.kind === 'server' || failure.kind === 'general';
}
