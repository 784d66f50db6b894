import type { Queryable } from '../../db/connection';
import { CHANGEABLE, currentRows } from './change-rules';
import { quietHoursEnd } from './quiet-hours';
import { createRemindersRepository } from './reminders-repository';
import { createAppointmentsRepository, type BookingRow } from './repository';

/** The appointment's status once the clinic's system has its check-in (the RIS hand-off, through check-in's public.ts). */
export function markCheckedIn(q: Queryable, appointmentId: string, at: Date): Promise<void> {
  return createAppointmentsRepository(q).markCheckedIn(appointmentId, at);
}

/**
 * What other modules may use of appointments: how many consent forms of the booking's current
 * appointments are still unsigned, by the same rule the consent-forms call uses (the check-in
 * checklist, docs/rules/check-in.md#checklist).
 */
export async function unsignedConsentForms(q: Queryable, bookingKey: string): Promise<number> {
  const repository = createAppointmentsRepository(q);
  const rows = currentRows(await repository.bookingRows(bookingKey));
  if (rows.length === 0) return 0;
  const forms = await repository.consentForms(bookingKey, [...new Set(rows.map((row) => row.modality_id))]);
  return forms.filter((form) => form.signed_name === null).length;
}

/**
 * A booking's current rows that still hold a time (BOOKED, PENDING, CONFIRMED, REQUEST_RESCHEDULE),
 * first first, with what its mails show: the waitlist's offers are about them.
 */
export async function liveBookingRows(q: Queryable, bookingKey: string): Promise<BookingRow[]> {
  const rows = currentRows(await createAppointmentsRepository(q).bookingRows(bookingKey, q));
  return rows.filter((row) => CHANGEABLE.has(row.status));
}

/**
 * When the provider's quiet hours (reminder_settings, docs/rules/reminders.md) that `now` falls in
 * end at a clinic in `timeZone`; null outside them. The waitlist's offers count their hold from then.
 */
export async function providerQuietHoursEnd(q: Queryable, now: Date, timeZone: string): Promise<Date | null> {
  return quietHoursEnd(now, timeZone, await createRemindersRepository(q).settings());
}

/** A cancellation by the provider's own system (app.cancelByProvider): what the FHIR API and the RIS's HL7 call. */
export type { CancelByProvider, ProviderCancellation } from './provider-cancel';
/** A move by the provider's own system (app.moveByProvider): what the RIS's HL7 calls. */
export type { MoveByProvider, ProviderMove } from './provider-move';
/** The day plan worded as plain text lines, for a reminder mail or SMS (docs/rules/day-plan.md). */
export { dayPlanLines } from './day-plan-lines';
/** The end of a booking held for a screening review: approved (BOOKED) or cancelled (docs/rules/screening-review.md). */
export { settleHeldBooking, type HeldBookingEnd, type SettledHold } from './screening-hold';
/** "Wed, 18 Mar, 11:00 am" in the clinic's time zone, as every SMS writes a time. */
export { smsWhen } from './reminder-sms';
