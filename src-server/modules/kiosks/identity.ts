import { createHmac } from 'node:crypto';
import { KIOSK_MESSAGES, type CheckInIdentityResponse } from '@contract/api/kiosks';
import type { Clock } from '../../platform/clock';
import { badRequest, secondsUntilWindowFrees, tooManyRequests } from '../../platform/errors';
import type { IdentityMatchRow, KioskRow, KiosksRepository } from './repository';

/**
 * The check-in identity check (docs/rules/kiosk.md#identity-check-and-kiosk-check-in):
 * today's appointments for a last name and date of birth, or for the booking key of a scanned
 * booking code and date of birth (docs/rules/kiosk.md#identify-by-scanning). Both ways count
 * against the same limits, so a kiosk cannot be used to probe who has appointments, nor to guess
 * the date of birth that goes with a code.
 */

/** Identity checks: at most this many per kiosk in IDENTITY_WINDOW_MS (a queue at the desk is a few a minute)… */
export const KIOSK_IDENTITY_LIMIT = 30;
/** …and this many for one person (last name and date of birth, or one booking code) at any kiosk. */
export const PERSON_IDENTITY_LIMIT = 6;
export const IDENTITY_WINDOW_MS = 10 * 60_000;

export const IDENTITY_TEXTS = {
  tooManyAtKiosk: 'Too many look-ups at this kiosk. Please ask at the front desk.',
  tooManyForPerson: 'Too many look-ups for these details. Please ask at the front desk.',
} as const;

/** The request as the contract's schema let it through: exactly one of lastName and bookingKey. */
export interface IdentityQuery {
  lastName?: string | undefined;
  bookingKey?: string | undefined;
  dateOfBirth: string;
}

export interface IdentityDeps {
  repository: KiosksRepository;
  clock: Clock;
  /** The server's HMAC key (SESSION_SECRET or the database's own). */
  secret: () => Promise<string>;
  checkInOpen: (appointment: IdentityMatchRow, now: Date) => Promise<'open' | 'disabled' | 'not_yet'>;
  feedbackAnswered: (bookingKey: string) => Promise<boolean>;
}

/**
 * The person bucket's key: an HMAC under the server's secret, never the values. For a code it is
 * the booking key alone, so every date of birth tried with one code counts for the same person.
 */
function personBucket(secret: string, query: IdentityQuery): string {
  const subject =
    query.bookingKey !== undefined
      ? `kiosk-identity-code|${query.bookingKey}`
      : `kiosk-identity|${(query.lastName ?? '').trim().toLowerCase()}|${query.dateOfBirth}`;
  return createHmac('sha256', secret).update(subject).digest('hex');
}

export function createIdentityCheck(deps: IdentityDeps) {
  const { repository, clock } = deps;

  return async function identity(kiosk: KioskRow, query: IdentityQuery): Promise<CheckInIdentityResponse> {
    // The schema already says so; kept for callers that skip it.
    if ((query.lastName === undefined) === (query.bookingKey === undefined)) throw badRequest(KIOSK_MESSAGES.oneWay);
    const now = clock.now();
    const personHmac = personBucket(await deps.secret(), query);
    const attempts = await repository.attemptsSince(kiosk.id, personHmac, new Date(now.getTime() - IDENTITY_WINDOW_MS));
    // Each limit waits until its oldest counted check leaves the window.
    if (attempts.kiosk >= KIOSK_IDENTITY_LIMIT)
      throw tooManyRequests(IDENTITY_TEXTS.tooManyAtKiosk, secondsUntilWindowFrees(attempts.kioskOldest, IDENTITY_WINDOW_MS, now));
    if (attempts.person >= PERSON_IDENTITY_LIMIT)
      throw tooManyRequests(IDENTITY_TEXTS.tooManyForPerson, secondsUntilWindowFrees(attempts.personOldest, IDENTITY_WINDOW_MS, now));
    const where = { dateOfBirth: query.dateOfBirth, clinicId: kiosk.clinic_id, now };
    // A code with the wrong date of birth finds nothing, exactly like unknown details: no hint that the code is real.
    const matches =
      query.bookingKey !== undefined
        ? await repository.todaysAppointmentsOfBooking({ ...where, bookingKey: query.bookingKey })
        : await repository.todaysAppointments({ ...where, lastName: query.lastName ?? '' });
    await repository.recordAttempt({ kioskId: kiosk.id, personHmac, matched: matches.length > 0, now });
    const keys = [...new Set(matches.map((match) => match.booking_key))];
    const open = matches.filter((match) => match.status !== 'CHECKED_IN');
    let disabledReason: CheckInIdentityResponse['disabledReason'] = null;
    if (matches.length > 0 && open.length === 0) disabledReason = 'ALREADY_CHECKED_IN';
    else if (keys.length === 1 && open[0] !== undefined) {
      const state = await deps.checkInOpen(open[0], now);
      disabledReason = state === 'disabled' ? 'CHECK_IN_DISABLED' : state === 'not_yet' ? 'NOT_YET_OPEN' : null;
    }
    const onlyKey = keys.length === 1 ? keys[0] : undefined;
    return {
      appointmentBookingKeys: keys,
      samePatient: new Set(matches.map((match) => match.patient_id)).size <= 1,
      // Only one booking goes on to sign in; for none or several there is nothing to ask.
      feedbackQuestionnaireAnswered: onlyKey === undefined ? true : await deps.feedbackAnswered(onlyKey),
      disabledReason,
    };
  };
}
