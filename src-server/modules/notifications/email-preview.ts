import { WAITLIST_OFFER_PAGE_PATH } from '@contract/api/waitlist';
import { APPOINTMENT_REPLY_PAGE_PATH } from '@contract/api/appointment-reply';
import type { EmailPreview, EmailPreviewQuery, PreviewReferenceKind } from '@contract/api/notifications';
import { resultPagePath } from '@contract/api/results';
import { SHARE_LIFETIME_DAYS, SHARED_RESULTS_PATH } from '@contract/api/result-shares';
import { UNSUBSCRIBE_PAGE_PATH } from '@contract/api/unsubscribe';
import type { SupportedLocale } from '@contract/api/locales';
import type { Clock } from '../../platform/clock';
import { badRequest, notFound } from '../../platform/errors';
import {
  BOOKING_CONFIRMATION_KIND,
  dueBeforeVisit,
  renderBookingConfirmationMail,
  type BookingConfirmation,
  type RenderedMail,
} from './booking-confirmation';
import type { Queryable } from '../../db/connection';
import {
  bookingRequestMail,
  cancellationMail,
  MAIL_KINDS,
  otpMail,
  referrerReportReadyMail,
  reminderMail,
  rescheduleRequestMail,
  resultShareMail,
  resultsReadyMail,
  waitlistOfferMail,
  waitlistTakenMail,
  screeningReviewMail,
  type Mail,
  type MailContext,
} from './mail-kinds';
import { mailContext } from './mail-context';
import { afterVisitQuestionnairesLink } from './questionnaire-links';
import { UNSUBSCRIBE_URL_PLACEHOLDER } from './templates/unsubscribe-placeholder';
import { callbackRequestedMail } from './callback-request';
import type { PreviewBookingRow, PreviewReportRow, PreviewRepository } from './preview-repository';

/**
 * The e-mail preview (docs/rules/notifications.md#e-mail-preview): staff see what a mail looks
 * like for a real record in one locale. Each entry of PREVIEW_TEMPLATES loads its record and
 * renders it with the same function that renders the mail the outbox sends; nothing is queued.
 */

export interface PreviewContext {
  locale: SupportedLocale;
  publicUrl: string;
  providerName: string;
  clock: Clock;
  /** The provider's look and the preview's locale. */
  mail: MailContext;
  /** For what the sent mail reads at queueing time (the questionnaires due). */
  db: Queryable;
}

/** The record a preview names, as the audit row identifies it (never a booking key: it grants access). */
export interface PreviewSubject {
  type: string;
  ids: string[];
}

export interface PreviewTemplate {
  /** Which kind of record the reference names (the page lists recent ones of that kind). */
  reference: PreviewReferenceKind;
  /** Renders the mail for the reference, or null when the reference names no record. */
  render(
    repository: PreviewRepository,
    referenceId: string,
    context: PreviewContext,
  ): Promise<{ mail: RenderedMail; subject: PreviewSubject } | null>;
}

/** Statuses that moved away: the booking continues in its newer rows (appointments/change-rules.ts MOVED). */
const MOVED = new Set(['RESCHEDULED', 'CHANGED']);

/** The confirmation as the booking and reschedule flows build it, from the booking's rows. */
export function confirmationOf(rows: readonly PreviewBookingRow[]): BookingConfirmation | null {
  const live = rows.filter((row) => !MOVED.has(row.status));
  const current = live.length > 0 ? live : [...rows];
  const first = current[0];
  if (first === undefined) return null;
  const walkIn = current.find((row) => row.walk_in_exam !== null)?.walk_in_exam ?? null;
  return {
    bookingKey: first.booking_key,
    patient: { title: first.title, firstName: first.first_name, lastName: first.last_name, email: first.email ?? '' },
    clinic: {
      name: first.clinic_name,
      address: `${first.street}, ${first.suburb} ${first.state} ${first.postcode}`,
      phone: first.phone,
      timeZone: first.time_zone,
    },
    appointments: current.map((row) => ({
      examName: row.exam_name,
      modalityName: row.modality_name,
      startsAt: row.starts_at,
      endsAt: row.ends_at,
      ...(row.preparation_notes === '' ? {} : { preparationNotes: row.preparation_notes }),
    })),
    ...(walkIn === null ? {} : { walkInExam: walkIn }),
    staffBooking: first.staff_booking,
    pending: current.some((row) => row.status === 'PENDING'),
  };
}

/** A mail without attachments, as the preview carries one. */
const asRendered = (mail: Mail): RenderedMail => ({ ...mail, attachments: [] });

/** The booking's appointment facts, from the confirmation the rows give. */
function bookingFacts(rows: readonly PreviewBookingRow[]) {
  const confirmation = confirmationOf(rows);
  if (confirmation === null) return null;
  return {
    facts: {
      bookingKey: confirmation.bookingKey,
      patient: {
        title: confirmation.patient.title ?? '',
        firstName: confirmation.patient.firstName,
        lastName: confirmation.patient.lastName,
      },
      clinic: { name: confirmation.clinic.name, phone: confirmation.clinic.phone ?? null, timeZone: confirmation.clinic.timeZone },
      appointments: confirmation.appointments,
    },
    subject: { type: 'appointment', ids: rows.map((row) => row.id) },
  };
}

/** A template rendered from a booking's rows. */
function fromBooking(render: (rows: PreviewBookingRow[], context: PreviewContext) => Promise<RenderedMail | null>): PreviewTemplate {
  return {
    reference: 'booking',
    async render(repository, referenceId, context) {
      const rows = await repository.bookingRows(referenceId);
      const mail = rows.length === 0 ? null : await render(rows, context);
      return mail === null ? null : { mail, subject: { type: 'appointment', ids: rows.map((row) => row.id) } };
    },
  };
}

/** A template rendered from a stored report. */
function fromReport(render: (report: PreviewReportRow, context: PreviewContext) => Promise<Mail>): PreviewTemplate {
  return {
    reference: 'report',
    async render(repository, referenceId, context) {
      const report = await repository.report(referenceId);
      if (report === null) return null;
      return { mail: asRendered(await render(report, context)), subject: { type: 'result_report', ids: [report.id] } };
    },
  };
}

const lastInitial = (first: string, last: string): string => `${first} ${last.slice(0, 1)}.`;
/** Stand-ins where the real value is a secret: the preview never mints a code or a link that opens anything. */
const SAMPLE_CODE = '123456';
const SAMPLE_TOKEN = 'preview-only';
/** A callback request's own words are the patient's: the preview shows the booking's patient with stand-in ones. */
const SAMPLE_CALLBACK = { phone: '+61400000000', reason: 'Preview: I could not find a time after work. Could you call me?' };

/**
 * A stand-in offer for the waitlist mails: a day before the booking, held 30 minutes from now, its
 * link a token that works nowhere (a preview is no way to take a time).
 */
/** The end of a screening review as the patient reads it; a decline quotes a stand-in note. */
function screeningReviewPreview(outcome: 'approved' | 'declined' | 'expired'): PreviewTemplate {
  return fromBooking(async (rows, context) => {
    const booking = bookingFacts(rows);
    const note = outcome === 'declined' ? 'A sample note: the radiographer writes why here.' : null;
    return booking === null ? null : asRendered(await screeningReviewMail(booking.facts, outcome, note, context.mail));
  });
}

function sampleOffer(
  facts: { appointments: ReadonlyArray<{ startsAt: string }>; clinic: { name: string } },
  context: { clock: Clock; mail: MailContext },
) {
  const start = new Date(facts.appointments[0]?.startsAt ?? context.clock.now().toISOString()).getTime();
  return {
    startsAt: new Date(start - 86_400_000).toISOString(),
    clinicName: facts.clinic.name,
    expiresAt: new Date(context.clock.now().getTime() + 30 * 60_000).toISOString(),
    offeredAt: context.clock.now().toISOString(),
    link: `${context.mail.brand.publicUrl}${WAITLIST_OFFER_PAGE_PATH}?token=preview`,
  };
}

/** Every template staff may preview, by the name the query gives (the outbox kind); a later mail adds one entry. */
export const PREVIEW_TEMPLATES: Readonly<Record<string, PreviewTemplate>> = Object.freeze({
  [BOOKING_CONFIRMATION_KIND]: fromBooking(async (rows, context) => {
    const confirmation = confirmationOf(rows);
    if (confirmation === null) return null;
    const questionnairesDue = await dueBeforeVisit(context.db, confirmation, context.clock);
    return renderBookingConfirmationMail({ ...confirmation, questionnairesDue }, { ...context, brand: context.mail.brand });
  }),
  [MAIL_KINDS.bookingRequest]: {
    reference: 'booking_request',
    async render(repository, referenceId, context) {
      const rows = await repository.bookingRequestRows(referenceId);
      const first = rows[0];
      if (first === undefined) return null;
      const mail = await bookingRequestMail(
        {
          bookingKey: first.booking_key,
          patient: { title: first.title, firstName: first.first_name, lastName: first.last_name },
          clinic: first.clinic_name === null ? null : { name: first.clinic_name, phone: first.phone === '' ? null : first.phone },
          exams: rows.map((row) => row.exam_name),
        },
        context.mail,
      );
      return { mail: asRendered(mail), subject: { type: 'booking_request', ids: rows.map((row) => row.id) } };
    },
  },
  [MAIL_KINDS.cancellation]: fromBooking(async (rows, context) => {
    const booking = bookingFacts(rows);
    return booking === null ? null : asRendered(await cancellationMail(booking.facts, context.mail));
  }),
  [MAIL_KINDS.rescheduleRequest]: fromBooking(async (rows, context) => {
    const booking = bookingFacts(rows);
    return booking === null ? null : asRendered(await rescheduleRequestMail(booking.facts, context.mail));
  }),
  [MAIL_KINDS.reminder]: fromBooking(async (rows, context) => {
    const booking = bookingFacts(rows);
    if (booking === null) return null;
    // The answer buttons as a patient's mail has them, with a token that works nowhere: a preview is no way to answer.
    const replyLink = `${context.mail.brand.publicUrl}${APPOINTMENT_REPLY_PAGE_PATH}?token=preview`;
    return asRendered(await reminderMail({ ...booking.facts, replyLink }, context.mail));
  }),
  [MAIL_KINDS.waitlistOffer]: fromBooking(async (rows, context) => {
    const booking = bookingFacts(rows);
    return booking === null ? null : asRendered(await waitlistOfferMail(booking.facts, sampleOffer(booking.facts, context), context.mail));
  }),
  [MAIL_KINDS.waitlistTaken]: fromBooking(async (rows, context) => {
    const booking = bookingFacts(rows);
    return booking === null ? null : asRendered(await waitlistTakenMail(booking.facts, sampleOffer(booking.facts, context), context.mail));
  }),
  [MAIL_KINDS.screeningApproved]: screeningReviewPreview('approved'),
  [MAIL_KINDS.screeningDeclined]: screeningReviewPreview('declined'),
  [MAIL_KINDS.screeningExpired]: screeningReviewPreview('expired'),
  [MAIL_KINDS.otp]: fromBooking(async (_rows, context) => asRendered(await otpMail({ code: SAMPLE_CODE, validMinutes: 10 }, context.mail))),
  [MAIL_KINDS.resultsReady]: fromReport(async (report, context) => {
    const resultPath = resultPagePath(report.booking_key);
    const visit = { bookingKey: report.booking_key, startsAt: report.starts_at, resultPath };
    return resultsReadyMail(
      {
        firstName: report.first_name,
        examName: report.exam_name,
        startsAt: report.starts_at,
        timeZone: report.time_zone,
        link: `${context.publicUrl}${resultPath}`,
        // As the sent mail reads them when it is queued.
        questionnaires: await afterVisitQuestionnairesLink(context.db, visit, context.clock.now(), context.publicUrl),
      },
      context.mail,
    );
  }),
  [MAIL_KINDS.share]: fromReport((report, context) =>
    resultShareMail(
      {
        sharedBy: lastInitial(report.first_name, report.last_name),
        contactName: null,
        history: false,
        note: null,
        link: `${context.publicUrl}${SHARED_RESULTS_PATH}#${SAMPLE_TOKEN}`,
        validUntil: new Date(context.clock.now().getTime() + SHARE_LIFETIME_DAYS * 86_400_000).toLocaleDateString(context.locale, {
          day: 'numeric',
          month: 'long',
          year: 'numeric',
          timeZone: 'UTC',
        }),
      },
      context.mail,
    ),
  ),
  [MAIL_KINDS.referrer]: fromReport((report, context) =>
    referrerReportReadyMail(
      {
        referrerName: report.referrer_name,
        patient: lastInitial(report.first_name, report.last_name),
        examName: report.exam_name,
        startsAt: report.starts_at,
        timeZone: report.time_zone,
        accessionNumber: report.accession_number,
        link: `${context.publicUrl}/referrer/quick-report?imsec=${SAMPLE_TOKEN}`,
      },
      context.mail,
    ),
  ),
  [MAIL_KINDS.callbackRequested]: fromBooking(async (rows, context) => {
    const first = rows[0];
    if (first === undefined) return null;
    return asRendered(
      await callbackRequestedMail(
        {
          firstName: first.first_name,
          lastName: first.last_name,
          phone: SAMPLE_CALLBACK.phone,
          windows: ['weekdayMorning', 'saturdayMorning'],
          reason: SAMPLE_CALLBACK.reason,
          examName: first.exam_name,
          receivedAt: context.clock.now(),
          timeZone: first.time_zone,
        },
        context.mail,
      ),
    );
  }),
} satisfies Record<string, PreviewTemplate>);

export const PREVIEW_TEMPLATE_NAMES: readonly string[] = Object.keys(PREVIEW_TEMPLATES);

export function previewTemplate(name: string): PreviewTemplate {
  const template = Object.hasOwn(PREVIEW_TEMPLATES, name) ? PREVIEW_TEMPLATES[name] : undefined;
  if (template === undefined) {
    const message = `Unknown e-mail template "${name}"; known templates: ${PREVIEW_TEMPLATE_NAMES.join(', ')}.`;
    throw badRequest(message, [{ in: 'querystring/template', message }], 'validation_failed');
  }
  return template;
}

export interface EmailPreviewDeps {
  repository: PreviewRepository;
  db: Queryable;
  publicUrl: string;
  clock: Clock;
}

/** Renders a template for a reference in a language, or 404; nothing is written. */
export async function renderPreview(
  deps: EmailPreviewDeps,
  query: EmailPreviewQuery,
): Promise<{ mail: RenderedMail; subject: PreviewSubject }> {
  const template = previewTemplate(query.template);
  const mail = await mailContext(deps.db, deps.publicUrl, query.lang);
  const rendered = await template.render(deps.repository, query.referenceId, {
    locale: query.lang,
    publicUrl: deps.publicUrl,
    providerName: mail.brand.name,
    clock: deps.clock,
    mail,
    db: deps.db,
  });
  if (rendered === null) throw notFound(NOT_FOUND[template.reference]);
  // A preview mints no secret: its unsubscribe link is a sample the unsubscribe page refuses.
  const sampleLink = `${deps.publicUrl}${UNSUBSCRIBE_PAGE_PATH}?token=${SAMPLE_TOKEN}`;
  const withSample = (body: string) => body.split(UNSUBSCRIBE_URL_PLACEHOLDER).join(sampleLink);
  return { ...rendered, mail: { ...rendered.mail, html: withSample(rendered.mail.html), text: withSample(rendered.mail.text) } };
}

const NOT_FOUND: Record<PreviewReferenceKind, string> = {
  booking: 'No appointment or booking has this reference id.',
  booking_request: 'No booking request has this reference id.',
  report: 'No report has this reference id.',
};

/** The preview page shows the booking code's QR image: the mail's cid: reference becomes the image itself. */
function inlineImages(mail: RenderedMail): string {
  let html = mail.html;
  for (const attachment of mail.attachments) {
    if (attachment.cid === undefined || attachment.encoding !== 'base64') continue;
    html = html.split(`cid:${attachment.cid}`).join(`data:${attachment.contentType};base64,${attachment.content}`);
  }
  return html;
}

/**
 * Renders the preview and writes the audit row naming the staff member.
 * @param query - template, lang and referenceId, already validated against the contract.
 * @param actor - the staff member (`staff:<ref>`, staff-access subjectRef).
 */
export async function previewEmail(deps: EmailPreviewDeps, query: EmailPreviewQuery, actor: string): Promise<EmailPreview> {
  const rendered = await renderPreview(deps, query);
  await deps.repository.audit({
    actor,
    action: 'email_previewed',
    subjectType: rendered.subject.type,
    subjectId: rendered.subject.ids.join(','),
    details: { template: query.template, lang: query.lang },
    now: deps.clock.now(),
  });
  return { subject: rendered.mail.subject, html: inlineImages(rendered.mail), text: rendered.mail.text };
}
