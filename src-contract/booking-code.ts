/**
 * The booking code (docs/rules/kiosk.md#identify-by-scanning): the QR code on the confirmation
 * e-mail, the confirmation page and the appointment page. It carries only the appointment page's
 * URL, `${PUBLIC_URL}/a/${bookingKey}`: a phone that scans it opens the patient's own page (which
 * still asks the date of birth), and a kiosk reads the booking key out of it. No personal data;
 * the key alone is useless without the date of birth and the one-time code.
 *
 * No imports: the kiosk scanner and the code component load it on their own.
 */

/** randomToken's base64url, as the server's booking-key params accept it (BookingKeySchema). */
export const BOOKING_KEY_PATTERN = /^[A-Za-z0-9_-]{22,64}$/;

/** Longer than any payload we make (an origin, a short path prefix, /appointments/ and a 64-character key). */
export const BOOKING_CODE_MAX_LENGTH = 400;

/**
 * http(s)://host[:port], up to 4 plain path segments of a path prefix (a portal served under one),
 * then /a/<key> or /appointments/<key>, an optional trailing slash, nothing else: no user info,
 * query, fragment, dot segments or escapes.
 */
const CODE_PATTERN =
  /^https?:\/\/([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?(?:\/[A-Za-z0-9_~-][A-Za-z0-9._~-]*){0,4}\/(?:a|appointments)\/([A-Za-z0-9_-]{22,64})\/?$/;

/** The QR payload for a booking: the short appointment link under the portal's public URL. */
export function bookingCodePayload(publicUrl: string, bookingKey: string): string {
  if (!BOOKING_KEY_PATTERN.test(bookingKey)) throw new RangeError('bookingCodePayload: not a booking key');
  return `${publicUrl.replace(/\/+$/, '')}/a/${bookingKey}`;
}

/**
 * The booking key a scanned code carries, or null for anything else. Whitespace around it (a
 * keyboard-wedge scanner's Enter, a camera decoder's newline) is ignored; any origin is accepted,
 * since a kiosk may reach the portal under another host name.
 */
export function bookingKeyFromCode(scanned: string): string | null {
  if (typeof scanned !== 'string' || scanned.length > BOOKING_CODE_MAX_LENGTH) return null;
  const match = CODE_PATTERN.exec(scanned.trim());
  return match?.[2] ?? null;
}

/** The key in groups of four for reading aloud or comparing by eye (never for typing back in). */
export function groupedBookingKey(bookingKey: string): string {
  return bookingKey.match(/.{1,4}/g)?.join(' ') ?? bookingKey;
}
