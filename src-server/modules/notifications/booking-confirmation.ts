import { createHash } from 'node:crypto';
import type { Queryable } from '../../db/connection';
import type { Clock } from '../../platform/clock';
import { escapeHtml } from '../../platform/index-html';
import type { MailAttachment } from '../../platform/mailer';
import { createOutboxRepository, oneLineSubject } from '../../platform/outbox/outbox-repository';
import { groupedBookingKey } from '@contract/booking-code';
import { BOOKING_CODE_PIXELS, bookingCodeAttachment } from './booking-code-image';
import { buildIcs, type CalendarEvent } from './ics';

/**
 * The booking confirmation e-mail: plain text, HTML and an .ics calendar file, queued in the
 * outbox inside the booking's own transaction (docs/rules/notifications.md#outbox), so there is no booking
 * without its mail and no mail without its booking.
 */

export interface BookingConfirmation {
  bookingKey: string;
  patient: { title?: string; firstName: string; lastName: string; email: string };
  clinic: { name: string; address: string; phone?: string; timeZone: string };
  appointments: Array<{ examName: string; modalityName: string; startsAt: string; endsAt: string; preparationNotes?: string }>;
  walkInExam?: { name: string; prepTime?: number; minutesPrior?: number };
  staffBooking: boolean;
  /** A PENDING booking: the time is kept but the clinic has yet to confirm it (wording, .ics TENTATIVE). */
  pending?: boolean;
}

export interface BookingConfirmationOptions {
  /** Where patients reach the portal, without a trailing slash (config.publicUrl). */
  publicUrl: string;
  providerName: string;
  clock: Clock;
  /** BCP 47 locale for dates and times; the provider's locale, en-AU by default. */
  locale?: string;
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
export const BOOKING_CODE_CAPTION = 'Scan this QR code at the kiosk to check in.';

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

function patientName(patient: BookingConfirmation['patient']): string {
  return [patient.title, patient.firstName, patient.lastName].filter((part) => part !== undefined && part.trim() !== '').join(' ');
}

/** The page where the patient sees and manages the booking. */
export function appointmentUrl(publicUrl: string, bookingKey: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/appointments/${encodeURIComponent(bookingKey)}`;
}

interface ClinicDateTime {
  date(at: Date): string;
  time(at: Date): string;
}

// Building an Intl.DateTimeFormat costs far more than using one; a deployment has a few zones.
const dateTimeFormats = new Map<string, ClinicDateTime>();

/** Date and time as people at the clinic read them (the clinic's zone, not the server's). */
function clinicDateTime(locale: string, timeZone: string): ClinicDateTime {
  const key = `${locale}\0${timeZone}`;
  let formats = dateTimeFormats.get(key);
  if (formats === undefined) {
    const date = new Intl.DateTimeFormat(locale, { timeZone, weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });
    const time = new Intl.DateTimeFormat(locale, { timeZone, hour: 'numeric', minute: '2-digit', timeZoneName: 'short' });
    formats = { date: (at) => date.format(at), time: (at) => time.format(at) };
    dateTimeFormats.set(key, formats);
  }
  return formats;
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

/**
 * Renders the confirmation without side effects.
 * @param confirmation - what was booked, for whom, where.
 * @param options - publicUrl and providerName for links and signature; clock for DTSTAMP.
 */
export function renderBookingConfirmation(confirmation: BookingConfirmation, options: BookingConfirmationOptions): RenderedMail {
  if (confirmation.appointments.length === 0) throw new RangeError('booking confirmation: no appointments');
  const locale = options.locale ?? 'en-AU';
  const { clinic, staffBooking, walkInExam } = confirmation;
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
  const format = clinicDateTime(locale, clinic.timeZone);
  const name = patientName(confirmation.patient);
  const link = appointmentUrl(options.publicUrl, confirmation.bookingKey);
  const bookingCode = groupedBookingKey(confirmation.bookingKey);
  const image = options.bookingCodeImage;
  const when = `${format.date(first.startsAt)} at ${format.time(first.startsAt)}`;

  const pending = confirmation.pending === true;
  const state = pending ? 'reserved and waiting for the clinic to confirm it' : 'confirmed';
  const subjectState = pending ? 'request is received' : 'is confirmed';
  // The mail goes to the patient, also when the booking team booked for them (staffBooking): it
  // speaks to the patient and says who booked (issue 26), never of "the patient".
  const words = {
    subject: `Your appointment ${subjectState}: ${when}, ${clinic.name}`,
    intro: staffBooking
      ? `Your appointment at ${clinic.name} is ${state}. Our booking team booked it for you.`
      : `Your appointment at ${clinic.name} is ${state}.`,
    heading: 'Your appointment',
    arrive: (minutes: number) => `Please arrive ${minutes} minutes before your appointment time.`,
    manage: 'To view or manage your appointment, open:',
    cannotAttend: 'If you cannot attend, please let the clinic know.',
  };

  const visitLines = (visit: Visit): { title: string; when: string; notes: string | null } => ({
    title: `${visit.examName} (${visit.modalityName})`,
    when: `${format.date(visit.startsAt)}, ${format.time(visit.startsAt)} to ${format.time(visit.endsAt)}`,
    notes: visit.preparationNotes,
  });
  const walkInLines: string[] = [];
  if (walkInExam !== undefined) {
    walkInLines.push(`Walk-in exam: ${walkInExam.name}`);
    if (walkInExam.minutesPrior !== undefined && walkInExam.minutesPrior > 0) walkInLines.push(words.arrive(walkInExam.minutesPrior));
    if (walkInExam.prepTime !== undefined && walkInExam.prepTime > 0)
      walkInLines.push(`Allow ${walkInExam.prepTime} minutes for preparation.`);
  }
  const clinicLines = [clinic.name, clinic.address, ...(clinic.phone ? [`Phone: ${clinic.phone}`] : [])];

  const text = [
    `Dear ${name},`,
    '',
    words.intro,
    '',
    `${words.heading}:`,
    ...visits.flatMap((visit) => {
      const lines = visitLines(visit);
      return [
        `- ${lines.title}`,
        `  ${lines.when}`,
        ...(lines.notes === null ? [] : ['  Preparation:', ...lines.notes.split(/\r\n|\r|\n/).map((line) => `    ${line}`)]),
      ];
    }),
    ...(walkInLines.length === 0 ? [] : ['', ...walkInLines]),
    '',
    'Clinic:',
    ...clinicLines.map((line) => `  ${line}`),
    '',
    words.manage,
    link,
    '',
    `Booking code: ${bookingCode}`,
    BOOKING_CODE_CAPTION,
    '',
    words.cannotAttend,
    'A calendar file (appointment.ics) is attached.',
    '',
    options.providerName,
    '',
  ].join('\n');

  const e = escapeHtml;
  const paragraph = (value: string): string => `<p style="margin:0 0 12px">${e(value)}</p>`;
  const multiline = (value: string): string =>
    value
      .split(/\r\n|\r|\n/)
      .map(e)
      .join('<br>');
  const html = [
    '<!doctype html>',
    '<html lang="en">',
    '<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${e(oneLineSubject(words.subject))}</title></head>`,
    '<body style="margin:0;padding:16px;font-family:Arial,Helvetica,sans-serif;font-size:16px;line-height:1.5;color:#1f1f1f;background:#ffffff">',
    '<main style="max-width:600px">',
    paragraph(`Dear ${name},`),
    paragraph(words.intro),
    `<h1 style="font-size:20px;margin:16px 0 8px">${e(words.heading)}</h1>`,
    '<ul style="padding-left:20px;margin:0 0 12px">',
    ...visits.map((visit) => {
      const lines = visitLines(visit);
      return (
        `<li style="margin-bottom:8px"><strong>${e(lines.title)}</strong><br>${e(lines.when)}` +
        (lines.notes === null ? '' : `<br><span>Preparation:</span><br>${multiline(lines.notes)}`) +
        '</li>'
      );
    }),
    '</ul>',
    ...walkInLines.map(paragraph),
    '<h2 style="font-size:18px;margin:16px 0 8px">Clinic</h2>',
    `<p style="margin:0 0 12px">${clinicLines.map(e).join('<br>')}</p>`,
    paragraph(words.manage),
    `<p style="margin:0 0 12px"><a href="${e(link)}" style="color:#0b57d0">${e(link)}</a></p>`,
    '<h2 style="font-size:18px;margin:16px 0 8px">Booking code</h2>',
    ...(image === undefined
      ? []
      : [
          `<p style="margin:0 0 8px"><img src="cid:${e(image.cid ?? '')}" width="${BOOKING_CODE_PIXELS}" height="${BOOKING_CODE_PIXELS}" alt="${e(`QR code of booking ${bookingCode}`)}" style="display:block"></p>`,
        ]),
    `<p style="margin:0 0 4px;font-family:'Courier New',Courier,monospace;font-size:18px;letter-spacing:1px">${e(bookingCode)}</p>`,
    paragraph(BOOKING_CODE_CAPTION),
    paragraph(words.cannotAttend),
    paragraph('A calendar file (appointment.ics) is attached.'),
    paragraph(options.providerName),
    '</main>',
    '</body>',
    '</html>',
    '',
  ].join('\n');

  const events: CalendarEvent[] = visits.map((visit, index) => ({
    uid: eventUid(confirmation.bookingKey, index, options.publicUrl),
    startsAt: visit.startsAt,
    endsAt: visit.endsAt,
    summary: `${visit.examName} (${visit.modalityName}), ${clinic.name}`,
    location: `${clinic.name}, ${clinic.address}`,
    description: [
      ...(visit.preparationNotes === null ? [] : [`Preparation: ${visit.preparationNotes}`]),
      ...walkInLines,
      ...(clinic.phone ? [`Clinic phone: ${clinic.phone}`] : []),
      `${words.manage} ${link}`,
    ].join('\n'),
    url: link,
    status: pending ? 'TENTATIVE' : 'CONFIRMED',
  }));
  const ics = buildIcs({
    productId: `-//${options.providerName}//Patient portal//EN`,
    stamp: options.clock.now(),
    events,
  });

  return {
    subject: oneLineSubject(words.subject),
    text,
    html,
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

/** Inserts the confirmation mail (text, html, .ics, the booking code's QR image) into the outbox inside the caller's transaction. */
export async function queueBookingConfirmation(
  tx: Queryable,
  confirmation: BookingConfirmation,
  options: { publicUrl: string; providerName: string; clock: Clock },
): Promise<void> {
  const mail = await renderBookingConfirmationMail(confirmation, options);
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
