import type { OtpChannel } from '@contract/api/patient-access';
import { isEmbeddedPath, paths } from '../../paths';
import { safeInternalPath } from '../../platform/safe-url';
import type { AuthenticationParams } from './patient-sign-in-store';
import type { PatientSubject } from '../../stores/session-store';

/** A booking key as the server issues them (src-contract/api/patient-access.ts BookingKeySchema). */
const BOOKING_KEY = /^[A-Za-z0-9_-]{22,64}$/;
/**
 * The booking pages a return URL may name: /appointments/{key} (also pending/),
 * /a/{key}, /booking-requests/{key}, /br/{key}, each optionally after a clinic path.
 */
const BOOKING_PAGE = /^\/(?:[^/?#]+\/)?(appointments|a|booking-requests|br)\/(?:pending\/)?([A-Za-z0-9_-]+)(?:[/?#]|$)/;

function isTrue(value: string | null): boolean {
  return value?.trim().toLowerCase() === 'true';
}

/** /appointments/{key}/result (from the results e-mail) and /appointments/{key}/result/patient (the patient portal link). */
const RESULT_PAGE = /^\/appointments\/([A-Za-z0-9_-]+)\/result(\/patient)?\/?(?:[?#]|$)/;

/** The contact's page of shared results (paths.sharedResults()), top level or embedded. */
const SHARED_RESULTS_PAGE = /^(?:\/iframe)?\/results\/shared\/?(?:[?#]|$)/;

/** The booking a return URL points at, if it is one of the booking pages, with the sign-in type that page needs. */
export function bookingFromUrl(url: string): { bookingKey: string; type: PatientSubject } | null {
  const path = isEmbeddedPath(url) ? url.slice('/iframe'.length) || '/' : url;
  const result = RESULT_PAGE.exec(path);
  if (result?.[1] && BOOKING_KEY.test(result[1]))
    return { bookingKey: result[1], type: result[2] ? 'PATIENT_PORTAL' : 'APPOINTMENT_RESULTS' };
  const match = BOOKING_PAGE.exec(path);
  if (!match?.[1] || !match[2] || !BOOKING_KEY.test(match[2])) return null;
  return { bookingKey: match[2], type: match[1] === 'booking-requests' || match[1] === 'br' ? 'BOOKING_REQUEST' : 'APPOINTMENT' };
}

/**
 * The authentication type named by the query (src-contract/api/patient-access.ts SIGN_IN_TYPES;
 * spelled out here, as the contract's module would bring zod into the sign-in chunk).
 */
function typeFromQuery(value: string | null): PatientSubject | null {
  const named = value?.trim().toUpperCase();
  switch (named) {
    case 'APPOINTMENT':
    case 'BOOKING_REQUEST':
    case 'APPOINTMENT_RESULTS':
    case 'PATIENT_PORTAL':
      return named;
    default:
      return null;
  }
}

/** The code channel a patient portal link asks for (otpType EMAIL or SMS), else null. */
function otpChannelFromQuery(value: string | null): OtpChannel | null {
  const named = value?.trim().toUpperCase();
  return named === 'EMAIL' || named === 'SMS' ? named : null;
}

/** The page a sign-in of this type opens when the link names no return URL. */
function ownPageOf(bookingKey: string, type: PatientSubject): string {
  switch (type) {
    case 'BOOKING_REQUEST':
      return paths.bookingRequest(bookingKey);
    case 'APPOINTMENT_RESULTS':
      return paths.result(bookingKey);
    case 'PATIENT_PORTAL':
      return paths.result(bookingKey, true);
    case 'APPOINTMENT':
      return paths.appointment(bookingKey);
  }
}

/**
 * Reads the /authentication query (docs/rules/patient-access.md#authentication-page: returnUrl, shared, bookingKey, type,
 * staffBooking, isBookingRequest, dateOfBirth, and otpType from the patient portal link). The return URL must be a path of this site (a
 * crafted link cannot send the patient elsewhere after sign-in); the booking key and type come
 * from the query or else from the return URL; without a return URL the booking's own page is it.
 *
 * @param embedded - the page is under /iframe: the return URL stays under /iframe too.
 * @param storedShareToken - the share link's token the shared results page kept (platform/share-token.ts);
 *   used only for shared=true back to that page, without a booking.
 */
export function readAuthenticationParams(
  params: URLSearchParams,
  embedded: boolean,
  storedShareToken: string | null = null,
): AuthenticationParams {
  const asked = safeInternalPath(params.get('returnUrl'));
  // Never back to the sign-in page itself (a loop).
  const requested = asked && !/^(\/iframe)?\/authentication(?:[/?#]|$)/.test(asked) ? asked : null;
  const fromUrl = requested ? bookingFromUrl(requested) : null;
  const queryKey = params.get('bookingKey')?.trim() ?? '';
  const bookingKey = BOOKING_KEY.test(queryKey) ? queryKey : (fromUrl?.bookingKey ?? null);
  const type: PatientSubject = isTrue(params.get('isBookingRequest'))
    ? 'BOOKING_REQUEST'
    : (typeFromQuery(params.get('type')) ?? fromUrl?.type ?? 'APPOINTMENT');
  const ownPage = bookingKey ? ownPageOf(bookingKey, type) : paths.home();
  const target = requested ?? ownPage;
  const dateOfBirth = params.get('dateOfBirth')?.trim() ?? '';
  const shared = isTrue(params.get('shared'));
  const toSharedResults = requested !== null && SHARED_RESULTS_PAGE.test(requested);
  return {
    bookingKey,
    type,
    returnUrl: embedded && !isEmbeddedPath(target) ? paths.embedded(target) : target,
    shared,
    ...(shared && toSharedResults && bookingKey === null && storedShareToken !== null ? { shareToken: storedShareToken } : {}),
    staffBooking: isTrue(params.get('staffBooking')),
    dateOfBirth: /^\d{4}-\d{2}-\d{2}$/.test(dateOfBirth) ? dateOfBirth : '',
    otpChannel: otpChannelFromQuery(params.get('otpType')),
  };
}
