import type { Queryable } from '../../db/connection';
import type { Clock } from '../../platform/clock';
import { createOutboxRepository } from '../../platform/outbox/outbox-repository';
import { mailContext } from './mail-context';
import {
  bookingRequestMail,
  cancellationMail,
  MAIL_KINDS,
  reminderMail,
  rescheduleRequestMail,
  screeningReviewMail,
  waitlistOfferMail,
  waitlistTakenMail,
  type AppointmentFacts,
  type WaitlistOfferFacts,
} from './mail-kinds';

/**
 * The booking mails besides the confirmation (docs/rules/notifications.md#mail-kinds), queued in
 * the outbox inside the transaction of the change they report: no request, cancellation or
 * reschedule request without its mail, and no mail for one that rolled back.
 */

/** The columns of a booking's appointment rows these mails read (appointments' BookingRow has them). */
export interface NoticeRow {
  status: string;
  exam_name: string;
  modality_name: string;
  starts_ms: number;
  ends_ms: number;
  clinic_name: string;
  phone: string;
  time_zone: string;
  title: string;
  first_name: string;
  last_name: string;
  email: string | null;
  email_unsubscribed: boolean;
}

export interface NoticeOptions {
  publicUrl: string;
  clock: Clock;
  /** A reminder's answer page with its signed token: the mail offers "I will come" and "I cannot come". */
  replyLink?: string;
  /** A reminder's day plan as English lines (appointments' dayPlanLines); shown in English mails. */
  dayPlan?: readonly string[];
}

/** The patient's address, unless there is none or the patient has unsubscribed (docs/rules/appointments.md#unsubscribe). */
function recipientOf(rows: readonly NoticeRow[]): string | null {
  const first = rows[0];
  if (first === undefined || first.email_unsubscribed || first.email === null || !first.email.includes('@')) return null;
  return first.email;
}

export function appointmentFactsOf(bookingKey: string, rows: readonly NoticeRow[]): AppointmentFacts | null {
  const first = rows[0];
  if (first === undefined) return null;
  return {
    bookingKey,
    patient: { title: first.title, firstName: first.first_name, lastName: first.last_name },
    clinic: { name: first.clinic_name, phone: first.phone === '' ? null : first.phone, timeZone: first.time_zone },
    appointments: [...rows]
      .sort((a, b) => a.starts_ms - b.starts_ms)
      .map((row) => ({
        examName: row.exam_name,
        modalityName: row.modality_name,
        startsAt: new Date(row.starts_ms).toISOString(),
        endsAt: new Date(row.ends_ms).toISOString(),
      })),
  };
}

/**
 * Queues "your appointment is cancelled", "your reschedule request is received" or the reminder for
 * the rows the change moved (read before it, inside its transaction). Nothing for an unsubscribed
 * patient or one without an address; answers whether it was queued.
 */
export async function queueAppointmentNotice(
  tx: Queryable,
  kind: 'cancellation' | 'rescheduleRequest' | 'reminder',
  bookingKey: string,
  rows: readonly NoticeRow[],
  options: NoticeOptions,
): Promise<boolean> {
  const recipient = recipientOf(rows);
  const found = appointmentFactsOf(bookingKey, rows);
  if (recipient === null || found === null) return false;
  const facts = {
    ...found,
    ...(options.replyLink === undefined ? {} : { replyLink: options.replyLink }),
    ...(options.dayPlan === undefined ? {} : { dayPlan: options.dayPlan }),
  };
  const context = await mailContext(tx, options.publicUrl);
  const render = { cancellation: cancellationMail, rescheduleRequest: rescheduleRequestMail, reminder: reminderMail }[kind];
  await createOutboxRepository(tx).enqueue(
    { kind: MAIL_KINDS[kind], recipient, ...(await render(facts, context)) },
    options.clock.now(),
    tx,
  );
  return true;
}

/** A waitlist mail: the earlier time offered, or that another patient took it. */
export type WaitlistNotice =
  | { kind: 'waitlistOffer'; offer: WaitlistOfferFacts }
  | { kind: 'waitlistTaken'; offer: Pick<WaitlistOfferFacts, 'startsAt' | 'clinicName'> };

/**
 * Queues a waitlist mail (docs/rules/waitlist.md) about the patient's current booking. False when
 * there is nobody to mail.
 */
export async function queueWaitlistNotice(
  tx: Queryable,
  notice: WaitlistNotice,
  bookingKey: string,
  rows: readonly NoticeRow[],
  options: NoticeOptions,
): Promise<boolean> {
  const recipient = recipientOf(rows);
  const facts = appointmentFactsOf(bookingKey, rows);
  if (recipient === null || facts === null) return false;
  const context = await mailContext(tx, options.publicUrl);
  const mail =
    notice.kind === 'waitlistOffer'
      ? await waitlistOfferMail(facts, notice.offer, context)
      : await waitlistTakenMail(facts, notice.offer, context);
  await createOutboxRepository(tx).enqueue({ kind: MAIL_KINDS[notice.kind], recipient, ...mail }, options.clock.now(), tx);
  return true;
}

const REVIEW_KINDS = { approved: 'screeningApproved', declined: 'screeningDeclined', expired: 'screeningExpired' } as const;

/** Queues the end of a screening review (docs/rules/screening-review.md) about the held rows; false when there is nobody to mail. */
export async function queueScreeningReviewNotice(
  tx: Queryable,
  outcome: 'approved' | 'declined' | 'expired',
  bookingKey: string,
  rows: readonly NoticeRow[],
  note: string | null,
  options: NoticeOptions,
): Promise<boolean> {
  const recipient = recipientOf(rows);
  const facts = appointmentFactsOf(bookingKey, rows);
  if (recipient === null || facts === null) return false;
  const mail = await screeningReviewMail(facts, outcome, note, await mailContext(tx, options.publicUrl));
  await createOutboxRepository(tx).enqueue({ kind: MAIL_KINDS[REVIEW_KINDS[outcome]], recipient, ...mail }, options.clock.now(), tx);
  return true;
}

/** Queues the acknowledgement of a new booking request: what was asked for, that the booking team will call. */
export async function queueBookingRequestReceived(
  tx: Queryable,
  request: {
    bookingKey: string;
    patient: { title?: string; firstName: string; lastName: string; email: string };
    clinic: { name: string; phone: string | null } | null;
    exams: string[];
  },
  options: NoticeOptions,
): Promise<void> {
  const context = await mailContext(tx, options.publicUrl);
  const mail = await bookingRequestMail(
    { bookingKey: request.bookingKey, patient: request.patient, clinic: request.clinic, exams: request.exams },
    context,
  );
  await createOutboxRepository(tx).enqueue(
    { kind: MAIL_KINDS.bookingRequest, recipient: request.patient.email, ...mail },
    options.clock.now(),
    tx,
  );
}
