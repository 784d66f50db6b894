import { createHash } from 'node:crypto';
import type { Queryable } from '../../db/connection';
import type { Clock } from '../../platform/clock';
import type { MailAttachment } from '../../platform/mailer';
import { createOutboxRepository, oneLineSubject } from '../../platform/outbox/outbox-repository';
import { groupedBookingKey } from '@contract/booking-code';
import type { DueQuestionnaires } from '@contract/api/questionnaires';
import { dueQuestionnaires } from '../questionnaires/public';
import { dueQuestionnairesLink } from './questionnaire-links';
import { BOOKING_CODE_PIXELS, bookingCodeAttachment } from './booking-code-image';
import { buildIcs, type CalendarEvent } from './ics';
import type { ConfirmationView } from './templates/booking-confirmation-mail';
import { defaultBrand, loadMailBrand, type MailBrand } from './templates/brand';
import { mailDates, mailLocale, wordsFor } from './templates/dates';
import { EN } from './templates/words';

/**
 * The booking confirmation e-mail: plain text, HTML and an .ics calendar file, queued in the
 * outbox inside the booking's own transaction (docs/rules/notifications.md#outbox), so there is no booking
 * without its mail and no mail without its booking.
 */

/** A clinic row as the confirmation names it: its name, one-line address, phone and zone. */
export function confirmationClinic(clinic: {
  name: string;
  street: string;
  suburb: string;
  state: string;
  postcode: string;
  phone?: string;
  time_zone: string;
}): BookingConfirmation['clinic'] {
  return {
    name: clinic.name,
    address: `${clinic.street}, ${clinic.suburb} ${clinic.state} ${clinic.postcode}`,
    ...(clinic.phone === undefined ? {} : { phone: clinic.phone }),
    timeZone: clinic.time_zone,
  };
}

export interface BookingConfirmation {
  bookingKey: string;
  patient: { title?: string; firstName: string; lastName: string; email: string };
  clinic: { name: string; address: string; phone?: string; timeZone: string };
  appointments: Array<{ examName: string; modalityName: string; startsAt: string; endsAt: string; preparationNotes?: string }>;
  walkInExam?: { name: string; prepTime?: number; minutesPrior?: number };
  staffBooking: boolean;
  /** A PENDING booking: the time is kept but the clinic has yet to confirm it (wording, .ics TENTATIVE). */
  pending?: boolean;
  /** Held for a screening review (docs/rules/screening-review.md): the outcome's message for the patient ('' for the default words). */
  screeningReview?: string;
  /** The questionnaires due before the visit (questionnaires' dueQuestionnaires); the mail links them. */
  questionnairesDue?: DueQuestionnaires;
}

export interface BookingConfirmationOptions {
  /** Where patients reach the portal, without a trailing slash (config.publicUrl). */
  publicUrl: string;
  providerName: string;
  clock: Clock;
  /** The mail's locale (words, dates and times); the provider's, en-AU by default. */
  locale?: string;
  /** The provider's look (templates/brand.ts); without it the name alone in default colours. */
  brand?: MailBrand;
  /** The booking code's QR image (booking-code-image.ts), shown inline; without it the code is in text only. */
  bookingCodeImage?: MailAttachment;
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
  attachments: MailAttachment[];
}

export const BOOKING_CONFIRMATION_KIND = 'booking_confirmation';
export const ICS_FILENAME = 'appointment.ics';
export const ICS_CONTENT_TYPE = 'text/calendar; charset=utf-8; method=PUBLISH';
/** Under the booking code (docs/rules/kiosk.md#identify-by-scanning). */
export const BOOKING_CODE_CAPTION = EN.confirmation.codeCaption;

interface Visit {
  examName: string;
  modalityName: string;
  startsAt: Date;
  endsAt: Date;
  preparationNotes: string | null;
}

function instant(value: string, field: string): Date {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw new RangeError(`booking confirmation: ${field} is not an ISO instant`);
  return date;
}

export function patientName(patient: { title?: string; firstName: string; lastName: string }): string {
  return [patient.title, patient.firstName, patient.lastName].filter((part) => part !== undefined && part.trim() !== '').join(' ');
}

/** The page where the patient sees and manages the booking. */
export function appointmentUrl(publicUrl: string, bookingKey: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/appointments/${encodeURIComponent(bookingKey)}`;
}

/** The due questionnaires' titles and the /q link that answers them, back to the appointment when done. */
function questionnairesOf(confirmation: BookingConfirmation, publicUrl: string): ConfirmationView['questionnaires'] {
  const key = confirmation.bookingKey;
  return dueQuestionnairesLink(publicUrl, key, confirmation.questionnairesDue, `/appointments/${encodeURIComponent(key)}`);
}

/** A stable UID that does not reveal the booking key (which grants access to the booking). */
function eventUid(bookingKey: string, index: number, publicUrl: string): string {
  const digest = createHash('sha256').update(`${bookingKey}\0${index}`).digest('hex').slice(0, 32);
  let host = 'portal.invalid';
  try {
    host = new URL(publicUrl).hostname || host;
  } catch {
    // A malformed publicUrl cannot pass config validation; keep a valid UID regardless.
  }
  return `${digest}@${host}`;
}

function prepare(confirmation: BookingConfirmation, options: BookingConfirmationOptions) {
  if (confirmation.appointments.length === 0) throw new RangeError('booking confirmation: no appointments');
  const locale = mailLocale(options.locale);
  const words = wordsFor(locale);
  const { clinic, walkInExam } = confirmation;
  const visits: Visit[] = confirmation.appointments
    .map((appointment) => ({
      examName: appointment.examName,
      modalityName: appointment.modalityName,
      startsAt: instant(appointment.startsAt, 'startsAt'),
      endsAt: instant(appointment.endsAt, 'endsAt'),
      preparationNotes: appointment.preparationNotes?.trim() ? appointment.preparationNotes.trim() : null,
    }))
    .sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime());
  const first = visits[0];
  if (first === undefined) throw new RangeError('booking confirmation: no appointments');
  const dates = mailDates(locale, clinic.timeZone);
  const w = words.confirmation;
  const walkInLines: string[] = [];
  if (walkInExam !== undefined) {
    walkInLines.push(w.walkIn(walkInExam.name));
    if (walkInExam.minutesPrior !== undefined && walkInExam.minutesPrior > 0) walkInLines.push(w.arrive(walkInExam.minutesPrior));
    if (walkInExam.prepTime !== undefined && walkInExam.prepTime > 0) walkInLines.push(w.allow(walkInExam.prepTime));
  }
  return {
    locale,
    words,
    visits,
    first,
    dates,
    walkInLines,
    pending: confirmation.pending === true,
    link: appointmentUrl(options.publicUrl, confirmation.bookingKey),
  };
}

/**
 * The calendar file alone (the booking pages' "Add to calendar" and the mail's attachment): one
 * event per appointment, its words in the mail's locale.
 */
export function bookingConfirmationIcs(confirmation: BookingConfirmation, options: BookingConfirmationOptions): string {
  const { words, visits, walkInLines, pending, link } = prepare(confirmation, options);
  const { clinic } = confirmation;
  const events: CalendarEvent[] = visits.map((visit, index) => ({
    uid: eventUid(confirmation.bookingKey, index, options.publicUrl),
    startsAt: visit.startsAt,
    endsAt: visit.endsAt,
    summary: `${visit.examName} (${visit.modalityName}), ${clinic.name}`,
    location: `${clinic.name}, ${clinic.address}`,
    description: [
      ...(visit.preparationNotes === null ? [] : [`${words.confirmation.preparation} ${visit.preparationNotes}`]),
      ...walkInLines,
      ...(clinic.phone ? [`${words.common.clinic}: ${words.common.phone(clinic.phone)}`] : []),
      `${words.confirmation.manage} ${link}`,
    ].join('\n'),
    url: link,
    status: pending ? 'TENTATIVE' : 'CONFIRMED',
  }));
  return buildIcs({ productId: `-//${options.providerName}//Patient portal//EN`, stamp: options.clock.now(), events });
}

/**
 * Renders the confirmation without side effects: subject, HTML and text from one react-email
 * template (templates/booking-confirmation-mail.tsx), and the .ics.
 * @param confirmation - what was booked, for whom, where.
 * @param options - publicUrl and providerName for links and signature; clock for DTSTAMP; locale and brand.
 */
export async function renderBookingConfirmation(
  confirmation: BookingConfirmation,
  options: BookingConfirmationOptions,
): Promise<RenderedMail> {
  const { locale, words, visits, first, dates, walkInLines, pending, link } = prepare(confirmation, options);
  const { clinic, staffBooking } = confirmation;
  const w = words.confirmation;
  const brand = { ...(options.brand ?? defaultBrand(options.publicUrl)), name: options.providerName };
  const bookingCode = groupedBookingKey(confirmation.bookingKey);
  const image = options.bookingCodeImage;
  const when = words.common.at(dates.date(first.startsAt), dates.time(first.startsAt));
  const subject = oneLineSubject(w.subject(brand.name, when, clinic.name, pending));
  // The mail goes to the patient, also when the booking team booked for them (staffBooking): it
  // speaks to the patient and says who booked, never of "the patient".
  const review =
    confirmation.screeningReview === undefined ? [] : [confirmation.screeningReview === '' ? w.review : confirmation.screeningReview];
  const intro = [w.intro(clinic.name, pending), ...(staffBooking ? [w.staffBooked] : []), ...review].join(' ');
  const view: ConfirmationView = {
    lang: locale,
    subject,
    name: patientName(confirmation.patient),
    intro,
    visits: visits.map((visit) => ({
      title: `${visit.examName} (${visit.modalityName})`,
      when: words.common.span(dates.date(visit.startsAt), dates.time(visit.startsAt), dates.time(visit.endsAt)),
      notes: visit.preparationNotes,
    })),
    walkInLines,
    clinicLines: [clinic.name, clinic.address, ...(clinic.phone ? [words.common.phone(clinic.phone)] : [])],
    clinicPhone: clinic.phone ?? null,
    link,
    questionnaires: questionnairesOf(confirmation, options.publicUrl),
    bookingCode,
    image: image === undefined ? null : { src: `cid:${image.cid ?? ''}`, size: BOOKING_CODE_PIXELS },
  };
  // The template (react-email) loads with the first mail, not when the server starts.
  const [{ BookingConfirmationMail }, { renderBodies }] = await Promise.all([
    import('./templates/booking-confirmation-mail'),
    import('./templates/render'),
  ]);
  const bodies = await renderBodies(BookingConfirmationMail({ brand, words, view }));
  const ics = bookingConfirmationIcs(confirmation, options);
  return {
    subject,
    ...bodies,
    attachments: [{ filename: ICS_FILENAME, contentType: ICS_CONTENT_TYPE, content: ics }, ...(image === undefined ? [] : [image])],
  };
}

/** The confirmation as it is sent (and previewed): rendered with the booking code's QR image. */
export async function renderBookingConfirmationMail(
  confirmation: BookingConfirmation,
  options: BookingConfirmationOptions,
): Promise<RenderedMail> {
  const bookingCodeImage = await bookingCodeAttachment(options.publicUrl, confirmation.bookingKey);
  return renderBookingConfirmation(confirmation, { ...options, bookingCodeImage });
}

/**
 * Inserts the confirmation mail (text, html, .ics, the booking code's QR image) into the outbox
 * inside the caller's transaction, in the provider's look and locale (read in that transaction).
 */
export async function queueBookingConfirmation(
  tx: Queryable,
  confirmation: BookingConfirmation,
  options: { publicUrl: string; providerName: string; clock: Clock; locale?: string },
): Promise<void> {
  const brand = await loadMailBrand(tx, options.publicUrl);
  const questionnairesDue = confirmation.questionnairesDue ?? (await dueBeforeVisit(tx, confirmation, options.clock));
  const mail = await renderBookingConfirmationMail(
    { ...confirmation, questionnairesDue },
    { ...options, brand, locale: options.locale ?? brand.locale },
  );
  await createOutboxRepository(tx).enqueue(
    {
      kind: BOOKING_CONFIRMATION_KIND,
      recipient: confirmation.patient.email,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      attachments: mail.attachments,
    },
    options.clock.now(),
  );
}

/** What the booking's patient should answer before the first visit (read in the booking's transaction). */
export function dueBeforeVisit(tx: Queryable, confirmation: BookingConfirmation, clock: Clock): Promise<DueQuestionnaires> {
  const starts = confirmation.appointments.map((appointment) => new Date(appointment.startsAt).getTime());
  return dueQuestionnaires(tx, { bookingKey: confirmation.bookingKey, startsAt: new Date(Math.min(...starts)), live: true }, clock.now());
}
