import { ApiError } from '../../api/client';

/**
 * What went wrong with a booking submission, as the web app words it (docs/rules/booking.md#failures):
 * 409 slot_taken / hold_expired has its own clear message and fresh times; 500 to 504 each
 * have their own text; 505 and above (and no answer at all) get the general text.
 */
export type BookingFailure =
  | { kind: 'slot_taken' }
  | { kind: 'invalid'; message: string }
  | { kind: 'server'; status: 500 | 501 | 502 | 503 | 504 }
  | { kind: 'general' };

const OWN_TEXT_STATUSES = [500, 501, 502, 503, 504] as const;
type OwnTextStatus = (typeof OWN_TEXT_STATUSES)[number];

function isOwnTextStatus(status: number): status is OwnTextStatus {
  return OWN_TEXT_STATUSES.some((known) => known === status);
}

/** Maps an error from the appointment or booking-request call onto what the page shows. */
export function bookingFailure(error: unknown): BookingFailure {
  if (!(error instanceof ApiError) || error.kind !== 'http') return { kind: 'general' };
  const code: string = error.code;
  if (error.status === 409 && (code === 'slot_taken' || code === 'hold_expired')) return { kind: 'slot_taken' };
  if (isOwnTextStatus(error.status)) return { kind: 'server', status: error.status };
  if (error.status >= 505) return { kind: 'general' };
  if (error.status >= 400 && error.status < 500) return { kind: 'invalid', message: error.message };
  return { kind: 'general' };
}

/** True when the failure is shown in the error modal (closing it reloads the times). */
export function isModalFailure(failure: BookingFailure): boolean {
  return failure.kind === 'server' || failure.kind === 'general';
}
