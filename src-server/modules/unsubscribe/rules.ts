/**
 * What unsubscribing stops (docs/rules/notifications.md#unsubscribe), decided by the outbox kind
 * when a mail goes out.
 *
 * Still sent to an unsubscribed address: mail the person cannot do without for what they are
 * doing right now. The one-time code (they just asked for it; without it they could never sign
 * in) and the booking confirmation (the appointment's time, place and check-in code: a missed
 * exam costs more than an unwanted mail). A staff member's test mail is theirs, asked for, and
 * goes to staff, not to a subscriber.
 *
 * Everything else stops, and so does any kind added later unless it is listed here: a new kind
 * is a notification until someone decides otherwise.
 */
export const SENT_EVEN_WHEN_UNSUBSCRIBED: ReadonlySet<string> = new Set(['otp_code', 'booking_confirmation', 'email_test']);

/**
 * Kinds that carry no unsubscribe headers: the staff test mail (it goes to the staff member who
 * asked for it; its footer holds the preview's sample link, which the page refuses).
 */
export const WITHOUT_UNSUBSCRIBE_HEADERS: ReadonlySet<string> = new Set(['email_test']);

export function stopsWhenUnsubscribed(kind: string): boolean {
  return !SENT_EVEN_WHEN_UNSUBSCRIBED.has(kind);
}

/**
 * One spelling per mailbox: trimmed and lower case. (A local part may in theory be case
 * sensitive; no mail service we send to treats it so, and a case-sensitive record would let
 * "Jane@" keep getting mail after "jane@" unsubscribed.)
 */
export function normaliseAddress(address: string): string {
  return address.trim().toLowerCase();
}

/** What an unsubscribe link may do, signed into it: a token for anything else is refused here, and this one everywhere else. */
export const UNSUBSCRIBE_LINK = { purpose: 'mail.unsubscribe', audience: 'mail-recipient' } as const;

/**
 * A year. RFC 8058 links must keep working long after the mail arrived, and each mail carries a
 * fresh one, so a person who still gets our mail always holds a live link. (Rotating the
 * signed-link keys ends older links after the rotation's grace period: the page then says the link
 * has run out and to use one from a newer mail.)
 */
export const UNSUBSCRIBE_LINK_TTL_MS = 365 * 24 * 60 * 60 * 1000;
