import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../../platform/clock';
import { readCookie } from '../patient-access/public';

/**
 * The booking receipt (docs/rules/booking.md#confirmation): the browser that made a booking may
 * read that booking's confirmation and calendar file back for the rest of its browser session,
 * without signing in, and nothing else of it (no change, no documents, no results).
 *
 * It is a cookie, `__Host-portal_booked`, set by the booking call: `<expiry>.<mac>`, the mac an
 * HMAC-SHA256 with the server secret over the booking key and the expiry. The booking key is not
 * in it (it grants access elsewhere) and nothing is stored: the server recomputes the mac for the
 * key in the path. One receipt per browser: a later booking replaces it, and the earlier one
 * then needs the usual sign-in. It has no Max-Age (it ends with the browser session) and the
 * expiry inside ends it after RECEIPT_HOURS whatever the browser does.
 */

export const BOOKING_RECEIPT_COOKIE = '__Host-portal_booked';
export const RECEIPT_HOURS = 12;

export interface BookingReceipts {
  /** The Set-Cookie value for a booking just made. */
  issue(bookingKey: string): Promise<string>;
  /** Whether the request's Cookie header carries a live receipt for exactly this booking. */
  holds(cookieHeader: string | string[] | undefined, bookingKey: string): Promise<boolean>;
}

function mac(secret: string, bookingKey: string, expiry: string): Buffer {
  return createHmac('sha256', secret).update(`booking-receipt\0${bookingKey}\0${expiry}`).digest();
}

export function createBookingReceipts(secret: () => Promise<string>, clock: Clock): BookingReceipts {
  return {
    async issue(bookingKey) {
      const expiry = Math.floor(clock.now().getTime() / 1000 + RECEIPT_HOURS * 3600).toString(36);
      const value = `${expiry}_${mac(await secret(), bookingKey, expiry).toString('base64url')}`;
      // The session cookie's attributes (patient-access/cookie.ts): it works inside a provider's iframe too.
      return `${BOOKING_RECEIPT_COOKIE}=${value}; Path=/; HttpOnly; Secure; SameSite=None; Partitioned`;
    },

    async holds(cookieHeader, bookingKey) {
      const value = readCookie(cookieHeader, BOOKING_RECEIPT_COOKIE);
      if (value === null || bookingKey === '') return false;
      const match = /^([0-9a-z]{1,10})_([A-Za-z0-9_-]{43})$/.exec(value);
      if (match === null) return false;
      const [, expiry = '', given = ''] = match;
      if (Number.parseInt(expiry, 36) * 1000 <= clock.now().getTime()) return false;
      // Compared as text: a non-canonical encoding of the same bytes (the last character's spare bits) is refused.
      const expected = Buffer.from(mac(await secret(), bookingKey, expiry).toString('base64url'));
      const actual = Buffer.from(given);
      return actual.length === expected.length && timingSafeEqual(actual, expected);
    },
  };
}
