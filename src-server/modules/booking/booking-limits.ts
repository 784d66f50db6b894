import { createHmac } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { CAPTCHA_HEADER } from '@contract/api/captcha';
import type { Queryable } from '../../db/connection';
import { captchaRequired, type Captcha } from '../../platform/captcha/captcha';
import type { Clock } from '../../platform/clock';
import { tooManyRequests, type AppError } from '../../platform/errors';
import { addDays, localDate, zonedTimeToInstant } from '../../platform/time-zone';
import { createBookingLimitsRepository, type DayCounter } from './limits-repository';

/**
 * Booking limits (docs/rules/booking.md#booking-limits): how many holds and bookings one client
 * address and one patient contact may make in a day, and how many confirmation mails one e-mail
 * address gets. Each counter has two thresholds: past the first a request needs a solved
 * proof-of-work answer (403 captcha_required without one), past the second it is refused (429
 * with Retry-After). The counts live in booking_limit_counter (0009_booking_limits.sql), keyed by
 * an HMAC of the address or contact with the server secret, so they survive restarts and are
 * shared by every server process on the database.
 */

export interface LimitThresholds {
  /** Requests past this many in a day need a solved proof-of-work answer. */
  captchaAfter: number;
  /** Requests past this many in a day are refused until the day ends. */
  refuseAfter: number;
}

export interface BookingLimits {
  /** Holds (POST /api/booking/holds) from one client address. */
  holdsPerClient: LimitThresholds;
  /** Bookings (appointments and booking requests) from one client address. */
  bookingsPerClient: LimitThresholds;
  /** Bookings for one patient e-mail, and for one patient phone number, from any address. */
  bookingsPerContact: LimitThresholds;
  /** Confirmation mails queued to one e-mail address; later bookings that day are made without one. */
  confirmationMailsPerEmail: number;
  /** A day runs from midnight to midnight here (the provider's home zone). */
  timeZone: string;
}

/** The numbers, and why each is what it is, are in docs/rules/booking.md#booking-limits. */
export const DEFAULT_BOOKING_LIMITS: BookingLimits = {
  holdsPerClient: { captchaAfter: 150, refuseAfter: 1500 },
  bookingsPerClient: { captchaAfter: 20, refuseAfter: 150 },
  bookingsPerContact: { captchaAfter: 10, refuseAfter: 40 },
  confirmationMailsPerEmail: 10,
  timeZone: 'Australia/Sydney',
};

/** Who is asking, as the limits see it. */
export interface BookingClient {
  /** request.ip: the client address (the proxy's client when TRUST_PROXY is set). */
  ip: string;
  /** The CAPTCHA_HEADER value, if any. */
  captcha: string | string[] | undefined;
  /** A trusted device that is never asked for the proof-of-work check (see exemptFromCaptcha). */
  exempt: boolean;
  /**
   * A signed-in staff member booking for patients (booking-caller.ts): not counted, never asked,
   * never refused (docs/rules/booking.md#staff-bookings).
   */
  staff?: boolean;
}

/**
 * Whether the request comes from a device that must never be asked for the proof-of-work check:
 * the clinic's kiosk, which cannot solve one and has no patient to wait for it. No kiosk
 * credential exists yet (kiosk enrolment is later work), so no request can prove it is a kiosk
 * and this answers false. Enrolment makes it true for a request carrying a valid kiosk credential.
 */
export function exemptFromCaptcha(_request: FastifyRequest): boolean {
  return false;
}

/** The limits' view of a Fastify request. */
export function bookingClient(request: FastifyRequest): BookingClient {
  return { ip: request.ip, captcha: request.headers[CAPTCHA_HEADER], exempt: exemptFromCaptcha(request) };
}

export interface BookingLimiterDeps {
  db: Queryable;
  clock: Clock;
  captcha: Captcha;
  /** The server secret the subject HMACs derive from (as in patient-access). */
  secret: () => Promise<string>;
  limits: BookingLimits;
}

/** 429 too_many_requests; details.retryAfterSeconds becomes the Retry-After header (routes.ts). */
export function bookingsThrottled(retryAfterSeconds: number): AppError {
  return tooManyRequests(
    'Too many bookings have been made from this connection today. Please try again later, or call the clinic to book.',
    retryAfterSeconds,
  );
}

/** A phone number as one person's: digits only, the Australian country code and leading zeros dropped. */
export function normalisedPhone(raw: string): string {
  const digits = raw.replace(/\D/g, '');
  const national = digits.length === 11 && digits.startsWith('61') ? digits.slice(2) : digits;
  return national.replace(/^0+/, '');
}

interface Counter extends DayCounter {
  thresholds: LimitThresholds;
}

export function createBookingLimiter(deps: BookingLimiterDeps) {
  const { clock, captcha, limits } = deps;
  const repository = createBookingLimitsRepository(deps.db);

  const hmac = (key: string, text: string): string => createHmac('sha256', key).update(text).digest('hex');

  function window(now: Date): { day: string; end: Date } {
    const day = localDate(now, limits.timeZone);
    return { day, end: zonedTimeToInstant(addDays(day, 1), '00:00', limits.timeZone) };
  }

  async function subjects(texts: ReadonlyArray<{ kind: string; text: string; thresholds: LimitThresholds }>): Promise<Counter[]> {
    const key = await deps.secret();
    return (
      texts
        .map((entry) => ({ kind: entry.kind, subject: hmac(key, entry.text), thresholds: entry.thresholds }))
        // One order for every request, so two upserts of the same rows never wait on each other in a cycle.
        .sort((a, b) => (a.kind === b.kind ? a.subject.localeCompare(b.subject) : a.kind.localeCompare(b.kind)))
    );
  }

  /**
   * Counts the request on each counter in one statement, then decides: any count past its
   * refuse threshold is a 429, any past its captcha threshold needs a valid answer (403
   * captcha_required without one). A refused request is taken off the counts again, so it is
   * not counted as a booking; the answer is checked after the count (not before), so a burst of
   * parallel requests cannot all slip under the threshold.
   */
  async function admit(counters: Counter[], client: BookingClient): Promise<void> {
    const now = clock.now();
    const { day, end } = window(now);
    const rows = await repository.count(counters, day, end);
    const countOf = (counter: Counter): number =>
      rows.find((row) => row.kind === counter.kind && row.subject === counter.subject)?.count ?? 0;
    const uncount = (): Promise<void> => repository.uncount(counters, day);
    if (counters.some((counter) => countOf(counter) > counter.thresholds.refuseAfter)) {
      await uncount();
      throw bookingsThrottled((end.getTime() - now.getTime()) / 1000);
    }
    if (client.exempt || counters.every((counter) => countOf(counter) <= counter.thresholds.captchaAfter)) return;
    if (!(await captcha.verify(client.captcha))) {
      await uncount();
      throw captchaRequired();
    }
  }

  return {
    /** Confirmation mails one address gets in a day. */
    confirmationMailCap: limits.confirmationMailsPerEmail,

    /** Counts a hold from this client (throws 429 or 403 captcha_required past the thresholds). */
    async admitHold(client: BookingClient): Promise<void> {
      if (client.staff === true) return;
      await admit(await subjects([{ kind: 'hold_client', text: `ip:${client.ip}`, thresholds: limits.holdsPerClient }]), client);
    },

    /** Counts a booking from this client for this patient (throws 429 or 403 captcha_required past the thresholds). */
    async admitBooking(client: BookingClient, patient: { email: string; contactNumber?: string | undefined }): Promise<void> {
      if (client.staff === true) return;
      const texts = [
        { kind: 'booking_client', text: `ip:${client.ip}`, thresholds: limits.bookingsPerClient },
        { kind: 'booking_email', text: `email:${patient.email.trim().toLowerCase()}`, thresholds: limits.bookingsPerContact },
      ];
      const phone = normalisedPhone(patient.contactNumber ?? '');
      if (phone !== '') texts.push({ kind: 'booking_phone', text: `phone:${phone}`, thresholds: limits.bookingsPerContact });
      await admit(await subjects(texts), client);
    },

    /**
     * Counts a confirmation mail to this address inside the booking's transaction (a booking that
     * rolls back takes its count with it); false once the day's cap is passed.
     */
    async confirmationMailAllowed(tx: Queryable, email: string): Promise<boolean> {
      const subject = hmac(await deps.secret(), `email:${email.trim().toLowerCase()}`);
      const { day, end } = window(clock.now());
      return (await repository.countOne({ kind: 'confirmation_mail', subject }, day, end, tx)) <= limits.confirmationMailsPerEmail;
    },

    /** Deletes the counts of days that have ended; answers how many. */
    async sweep(): Promise<number> {
      return repository.deleteEnded(clock.now());
    },
  };
}

export type BookingLimiter = ReturnType<typeof createBookingLimiter>;
