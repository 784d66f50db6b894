import type { SupportedLocale } from '@contract/api/locales';
import { oneLineSubject } from '../../platform/outbox/outbox-repository';
import { patientName } from './booking-confirmation';
import type { DueQuestionnairesLink } from './questionnaire-links';
import type { MailBrand } from './templates/brand';
import { mailDates, wordsFor } from './templates/dates';
import type { NoticeView } from './templates/notice-mail';
import type { MailWords } from './templates/words';

/**
 * Every mail but the booking confirmation (docs/rules/notifications.md#mail-kinds): each kind
 * turns its facts into the words of one locale and renders them in the shared layout. The
 * modules that send them (booking, appointments, results, result-shares, patient-access) gather
 * the facts and queue the result in their own transaction.
 */

export interface MailContext {
  brand: MailBrand;
  locale: SupportedLocale;
}

export interface Mail {
  subject: string;
  text: string;
  html: string;
}

export const MAIL_KINDS = {
  bookingRequest: 'booking_request_received',
  cancellation: 'appointment_cancelled',
  rescheduleRequest: 'reschedule_requested',
  reminder: 'appointment_reminder',
  waitlistOffer: 'waitlist_offer',
  waitlistTaken: 'waitlist_taken',
  otp: 'otp_code',
  resultsReady: 'results_ready',
  share: 'result_share',
  referrer: 'referrer_report_ready',
  callbackRequested: 'callback_requested',
  screeningApproved: 'screening_approved',
  screeningDeclined: 'screening_declined',
  screeningExpired: 'screening_expired',
} as const;

async function renderNotice(context: MailContext, build: (words: MailWords) => Omit<NoticeView, 'lang'>): Promise<Mail> {
  const words = wordsFor(context.locale);
  const view = { ...build(words), lang: context.locale };
  const subject = oneLineSubject(view.subject);
  // The templates (react-email) load with the first mail, not when the server starts.
  const [{ NoticeMail }, { renderBodies }] = await Promise.all([import('./templates/notice-mail'), import('./templates/render')]);
  const bodies = await renderBodies(NoticeMail({ brand: context.brand, words, view: { ...view, subject } }));
  return { subject, ...bodies };
}

export interface PatientFacts {
  title?: string;
  firstName: string;
  lastName: string;
}

/** A booking's appointments as the patient's mails list them. */
export interface AppointmentFacts {
  bookingKey: string;
  patient: PatientFacts;
  clinic: { name: string; phone: string | null; timeZone: string };
  appointments: Array<{ examName: string; modalityName: string; startsAt: string; endsAt: string }>;
  /** A reminder's answer page with its signed token (?token=…), when the patient may answer it. */
  replyLink?: string;
  /** A reminder's day plan, English lines (docs/rules/day-plan.md#in-a-reminder); left out of mails in other languages. */
  dayPlan?: readonly string[];
}

function appointmentItems(facts: AppointmentFacts, context: MailContext, words: MailWords) {
  const dates = mailDates(context.locale, facts.clinic.timeZone);
  const first = facts.appointments[0];
  if (first === undefined) throw new RangeError('mail: no appointments');
  const start = new Date(first.startsAt);
  return {
    when: words.common.at(dates.date(start), dates.time(start)),
    items: facts.appointments.map((appointment) => ({
      title: `${appointment.examName} (${appointment.modalityName})`,
      lines: [
        words.common.span(
          dates.date(new Date(appointment.startsAt)),
          dates.time(new Date(appointment.startsAt)),
          dates.time(new Date(appointment.endsAt)),
        ),
      ],
    })),
  };
}

const appointmentLink = (brand: MailBrand, bookingKey: string): string =>
  `${brand.publicUrl}/appointments/${encodeURIComponent(bookingKey)}`;

/** Sent when a booking request is created: what was asked for, and that the booking team will call. */
export function bookingRequestMail(
  facts: { bookingKey: string; patient: PatientFacts; clinic: { name: string; phone: string | null } | null; exams: string[] },
  context: MailContext,
): Promise<Mail> {
  return renderNotice(context, (words) => {
    const w = words.request;
    return {
      subject: w.subject(context.brand.name),
      greeting: words.common.dear(patientName(facts.patient)),
      intro: [w.intro],
      items: facts.exams.map((exam) => ({ title: exam })),
      after: [...(facts.clinic === null ? [] : [w.atClinic(facts.clinic.name)]), w.next],
      action: {
        lead: w.view,
        href: `${context.brand.publicUrl}/booking-requests/${encodeURIComponent(facts.bookingKey)}`,
        label: w.button,
      },
      phone: facts.clinic?.phone ?? null,
    };
  });
}

/**
 * The mails about a booking's appointments: the greeting, "{intro} at {clinic} on {when}", the
 * appointments, one action and what to know, in the clinic's phone's footer. Each kind names its words.
 */
function appointmentNotice(
  facts: AppointmentFacts,
  context: MailContext,
  build: (words: MailWords, when: string) => Pick<NoticeView, 'subject' | 'intro' | 'choices' | 'plan' | 'action' | 'after' | 'quote'>,
): Promise<Mail> {
  return renderNotice(context, (words) => {
    const { when, items } = appointmentItems(facts, context, words);
    return {
      ...build(words, when),
      greeting: words.common.dear(patientName(facts.patient)),
      items,
      phone: facts.clinic.phone,
    };
  });
}

/** Sent when the patient cancels: what was cancelled, how to book again, whom to call if it was not them. */
export function cancellationMail(facts: AppointmentFacts, context: MailContext): Promise<Mail> {
  return appointmentNotice(facts, context, ({ cancellation: w }, when) => ({
    subject: w.subject(context.brand.name, when),
    intro: [w.intro(facts.clinic.name, when)],
    action: { lead: w.rebook, href: `${context.brand.publicUrl}/`, label: w.button },
    after: [w.notYou(facts.clinic.phone)],
  }));
}

/** Sent the provider's hours before an appointment (docs/rules/reminders.md): when and where, and where to change or cancel it. */
export function reminderMail(facts: AppointmentFacts, context: MailContext): Promise<Mail> {
  const reply = facts.replyLink;
  // The plan's lines are English; a mail in another language leaves them to the appointment page.
  const plan = facts.dayPlan !== undefined && facts.dayPlan.length > 0 && context.locale.startsWith('en') ? facts.dayPlan : null;
  return appointmentNotice(facts, context, ({ reminder: w }, when) => ({
    subject: w.subject(context.brand.name, when),
    intro: [w.intro(facts.clinic.name, when)],
    ...(plan === null ? {} : { plan: { heading: w.yourDay, lines: [...plan] } }),
    ...(reply === undefined
      ? {}
      : {
          choices: {
            lead: w.willYouCome,
            options: [
              { href: `${reply}&answer=confirm`, label: w.yes },
              { href: `${reply}&answer=cancel`, label: w.no },
            ],
          },
        }),
    action: { lead: w.change, href: appointmentLink(context.brand, facts.bookingKey), label: w.button },
    after: [w.cannotCome(facts.clinic.phone)],
  }));
}

/** The earlier time a waiting patient is offered (docs/rules/waitlist.md). */
export interface WaitlistOfferFacts {
  startsAt: string;
  clinicName: string;
  /** Until when it is held for the offer. */
  expiresAt: string;
  /** When it was offered: a hold ending on another day (one made in the quiet hours) names its day. */
  offeredAt: string;
  /** The offer's page with its signed token. */
  link: string;
}

/** Sent to a waiting patient when an earlier time frees up: when, until when it is held, their current time, the offer's page. */
export function waitlistOfferMail(facts: AppointmentFacts, offer: WaitlistOfferFacts, context: MailContext): Promise<Mail> {
  const dates = mailDates(context.locale, facts.clinic.timeZone);
  const start = new Date(offer.startsAt);
  const until = new Date(offer.expiresAt);
  const sameDay = dates.day(until) === dates.day(new Date(offer.offeredAt));
  return appointmentNotice(facts, context, ({ waitlistOffer: w, common }) => {
    const when = common.at(dates.date(start), dates.time(start));
    const heldUntil = sameDay ? dates.time(until) : common.at(dates.date(until), dates.time(until));
    return {
      subject: w.subject(context.brand.name, when),
      intro: [w.intro(offer.clinicName, when), w.held(heldUntil), w.current],
      action: { lead: w.take, href: offer.link, label: w.button },
      after: [w.firstWins],
    };
  });
}

/** Sent to the others offered a time once one patient took it: their appointment stays, and they keep waiting. */
export function waitlistTakenMail(
  facts: AppointmentFacts,
  offer: Pick<WaitlistOfferFacts, 'startsAt' | 'clinicName'>,
  context: MailContext,
): Promise<Mail> {
  const dates = mailDates(context.locale, facts.clinic.timeZone);
  const start = new Date(offer.startsAt);
  return appointmentNotice(facts, context, ({ waitlistTaken: w, common }) => ({
    subject: w.subject(context.brand.name),
    intro: [w.intro(offer.clinicName, common.at(dates.date(start), dates.time(start)))],
    action: { lead: w.view, href: appointmentLink(context.brand, facts.bookingKey), label: w.button },
    after: [w.stays],
  }));
}

/**
 * The end of a screening review (docs/rules/screening-review.md): confirmed after review; declined,
 * with the radiographer's note; or expired undecided. A cancelled one says whom to call.
 */
export function screeningReviewMail(
  facts: AppointmentFacts,
  outcome: 'approved' | 'declined' | 'expired',
  note: string | null,
  context: MailContext,
): Promise<Mail> {
  return appointmentNotice(facts, context, ({ screeningReview: w }, when) => {
    const view = { lead: w.view, href: appointmentLink(context.brand, facts.bookingKey), label: w.button };
    if (outcome === 'approved')
      return {
        subject: w.approvedSubject(context.brand.name, when),
        intro: [w.approvedIntro(facts.clinic.name, when)],
        action: view,
        after: [],
      };
    return {
      subject: outcome === 'declined' ? w.declinedSubject(context.brand.name) : w.expiredSubject(context.brand.name),
      intro: [outcome === 'declined' ? w.declinedIntro(facts.clinic.name, when) : w.expiredIntro(facts.clinic.name, when)],
      ...(note === null ? {} : { quote: { label: w.note, text: note } }),
      after: [w.call(facts.clinic.phone)],
    };
  });
}

/** Sent when the patient asks to reschedule: the request is in, the time stays theirs meanwhile. */
export function rescheduleRequestMail(facts: AppointmentFacts, context: MailContext): Promise<Mail> {
  return appointmentNotice(facts, context, ({ rescheduleRequest: w }, when) => ({
    subject: w.subject(context.brand.name),
    intro: [w.intro(facts.clinic.name, when)],
    action: { lead: w.view, href: appointmentLink(context.brand, facts.bookingKey), label: w.button },
    after: [w.keep],
  }));
}

/** The one-time password: names the provider and the lifetime, never the booking key, date of birth or a name. */
export function otpMail(facts: { code: string; validMinutes: number }, context: MailContext): Promise<Mail> {
  return renderNotice(context, (words) => {
    const w = words.otp;
    return {
      subject: w.subject(context.brand.name),
      greeting: words.common.hello(null),
      intro: [w.code(context.brand.name, facts.code)],
      code: facts.code,
      after: [w.valid(facts.validMinutes), w.ignore],
    };
  });
}

/** A report is released: which exam, and the link; no finding, date of birth or code. */
export function resultsReadyMail(
  facts: {
    firstName: string;
    examName: string;
    startsAt: string;
    timeZone: string;
    link: string;
    /** The after-visit questionnaires still due (questionnaire-links.ts), or null. */
    questionnaires?: DueQuestionnairesLink | null;
  },
  context: MailContext,
): Promise<Mail> {
  return renderNotice(context, (words) => {
    const w = words.resultsReady;
    const date = mailDates(context.locale, facts.timeZone).day(new Date(facts.startsAt));
    const due = facts.questionnaires ?? null;
    return {
      subject: w.subject(context.brand.name, facts.examName),
      greeting: words.common.dear(facts.firstName),
      intro: [w.intro(facts.examName, date)],
      action: { href: facts.link, label: w.button },
      after: [w.need, w.doctor],
      ...(due === null
        ? {}
        : { questionnaires: { ...due, heading: w.questionnairesHeading, intro: w.questionnairesIntro, button: w.questionnairesButton } }),
    };
  });
}

/** To a contact a patient shared results with: who, what, the patient's note as written, the link. */
export function resultShareMail(
  facts: { sharedBy: string; contactName: string | null; history: boolean; note: string | null; link: string; validUntil: string },
  context: MailContext,
): Promise<Mail> {
  return renderNotice(context, (words) => {
    const w = words.share;
    return {
      subject: w.subject(context.brand.name, facts.sharedBy, facts.history),
      greeting: words.common.hello(facts.contactName),
      intro: [w.intro(facts.sharedBy, context.brand.name, facts.history)],
      ...(facts.note === null ? {} : { quote: { label: w.note, text: facts.note } }),
      action: { href: facts.link, label: w.button },
      after: [w.need(facts.sharedBy), w.until(facts.validUntil, facts.sharedBy), w.unknown(facts.sharedBy)],
    };
  });
}

/** To the referring doctor: whose report (first name, last initial), which exam, the quick report link. */
export function referrerReportReadyMail(
  facts: {
    referrerName: string;
    patient: string;
    examName: string;
    startsAt: string;
    timeZone: string;
    accessionNumber: string;
    link: string;
  },
  context: MailContext,
): Promise<Mail> {
  return renderNotice(context, (words) => {
    const w = words.referrer;
    const date = mailDates(context.locale, facts.timeZone).day(new Date(facts.startsAt));
    return {
      subject: w.subject(context.brand.name, facts.patient, facts.examName),
      greeting: words.common.dear(facts.referrerName),
      intro: [w.intro(facts.patient, facts.examName, date, facts.accessionNumber)],
      action: { href: facts.link, label: w.button },
      after: [w.private],
    };
  });
}
