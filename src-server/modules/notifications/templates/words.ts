import type { SupportedLocale } from '@contract/api/locales';

/**
 * Every word the mails say, per language (docs/rules/notifications.md#languages). A mail's
 * language follows the portal locale it is written in: en, en-AU, en-NZ and en-CA read English
 * (dates in their own locale), mk Macedonian. A new locale adds one dictionary here.
 */

export type MailLanguage = 'en' | 'mk';

export interface MailWords {
  language: MailLanguage;
  common: {
    dear(name: string): string;
    hello(name: string | null): string;
    /** "{date} at {time}" */
    at(date: string, time: string): string;
    /** "{date}, {from} to {to}" */
    span(date: string, from: string, to: string): string;
    phone(phone: string): string;
    clinic: string;
    contactHeading: string;
    contactPage: string;
    sentBy(provider: string): string;
    automatic: string;
    /** The footer's line before the unsubscribe link (docs/rules/notifications.md#unsubscribe). */
    unsubscribeLead: string;
    unsubscribe: string;
  };
  confirmation: {
    subject(provider: string, when: string, clinic: string, pending: boolean): string;
    intro(clinic: string, pending: boolean): string;
    staffBooked: string;
    /** A booking held for a screening review, when the provider's outcome gave no message of its own. */
    review: string;
    heading: string;
    preparation: string;
    walkIn(name: string): string;
    arrive(minutes: number): string;
    allow(minutes: number): string;
    manage: string;
    button: string;
    codeHeading: string;
    codeCaption: string;
    codeAlt(code: string): string;
    cannotAttend: string;
    icsAttached: string;
    questionnairesHeading: string;
    questionnairesIntro: string;
    questionnairesButton: string;
  };
  request: {
    subject(provider: string): string;
    intro: string;
    atClinic(clinic: string): string;
    next: string;
    view: string;
    button: string;
  };
  cancellation: {
    subject(provider: string, when: string): string;
    intro(clinic: string, when: string): string;
    rebook: string;
    button: string;
    notYou(phone: string | null): string;
  };
  reminder: {
    subject(provider: string, when: string): string;
    intro(clinic: string, when: string): string;
    change: string;
    button: string;
    cannotCome(phone: string | null): string;
    /** The heading of the reminder's day plan. */
    yourDay: string;
    /** The reminder's answers (with a reply link): the lead, "I will come", "I cannot come". */
    willYouCome: string;
    yes: string;
    no: string;
  };
  /** An earlier time offered to a waiting patient (docs/rules/waitlist.md), and the notice that someone else took it. */
  waitlistOffer: {
    subject(provider: string, when: string): string;
    intro(clinic: string, when: string): string;
    held(until: string): string;
    current: string;
    take: string;
    button: string;
    firstWins: string;
  };
  waitlistTaken: {
    subject(provider: string): string;
    intro(clinic: string, when: string): string;
    stays: string;
    view: string;
    button: string;
  };
  /** The end of a screening review (docs/rules/screening-review.md). */
  screeningReview: {
    approvedSubject(provider: string, when: string): string;
    approvedIntro(clinic: string, when: string): string;
    declinedSubject(provider: string): string;
    declinedIntro(clinic: string, when: string): string;
    note: string;
    expiredSubject(provider: string): string;
    expiredIntro(clinic: string, when: string): string;
    call(phone: string | null): string;
    view: string;
    button: string;
  };
  rescheduleRequest: {
    subject(provider: string): string;
    intro(clinic: string, when: string): string;
    keep: string;
    view: string;
    button: string;
  };
  otp: {
    subject(provider: string): string;
    code(provider: string, code: string): string;
    valid(minutes: number): string;
    ignore: string;
  };
  resultsReady: {
    subject(provider: string, exam: string): string;
    intro(exam: string, date: string): string;
    button: string;
    need: string;
    doctor: string;
    questionnairesHeading: string;
    questionnairesIntro: string;
    questionnairesButton: string;
  };
  share: {
    subject(provider: string, who: string, history: boolean): string;
    intro(who: string, provider: string, history: boolean): string;
    note: string;
    button: string;
    need(who: string): string;
    until(date: string, who: string): string;
    unknown(who: string): string;
  };
  referrer: {
    subject(provider: string, patient: string, exam: string): string;
    intro(patient: string, exam: string, date: string, accession: string): string;
    button: string;
    private: string;
  };
  /** To the call centre (staff read it): a patient asks to be called back. */
  callback: {
    subject(provider: string, name: string): string;
    intro: string;
    name: string;
    phone: string;
    windows: string;
    window: Record<'weekdayMorning' | 'weekdayAfternoon' | 'saturdayMorning' | 'anyTime', string>;
    exam: string;
    received: string;
    reason: string;
    button: string;
    after: string;
  };
}

export const EN: MailWords = {
  language: 'en',
  common: {
    dear: (name) => `Dear ${name},`,
    hello: (name) => (name === null ? 'Hello,' : `Hello ${name},`),
    at: (date, time) => `${date} at ${time}`,
    span: (date, from, to) => `${date}, ${from} to ${to}`,
    phone: (phone) => `Phone: ${phone}`,
    clinic: 'Clinic',
    contactHeading: 'Questions?',
    contactPage: 'Contact us',
    sentBy: (provider) => `This e-mail was sent by ${provider}.`,
    automatic: 'It was sent automatically; replies are not read.',
    unsubscribeLead: 'Rather not get our notification e-mails?',
    unsubscribe: 'Unsubscribe',
  },
  confirmation: {
    subject: (provider, when, clinic, pending) =>
      `${provider}: ${pending ? 'Your appointment request is received' : 'Your appointment is confirmed'} – ${when}, ${clinic}`,
    intro: (clinic, pending) =>
      `Your appointment at ${clinic} is ${pending ? 'reserved and waiting for the clinic to confirm it' : 'confirmed'}.`,
    staffBooked: 'It was booked for you by our booking team.',
    review: 'A radiographer will check your answers before your appointment is confirmed; we will e-mail you either way.',
    heading: 'Your appointment',
    preparation: 'Preparation:',
    walkIn: (name) => `Walk-in exam: ${name}`,
    arrive: (minutes) => `Please arrive ${minutes} minutes before your appointment time.`,
    allow: (minutes) => `Allow ${minutes} minutes for preparation.`,
    manage: 'To view or manage your appointment, open:',
    button: 'View your appointment',
    codeHeading: 'Booking code',
    codeCaption: 'Scan this QR code at the kiosk to check in.',
    codeAlt: (code) => `QR code of booking ${code}`,
    cannotAttend: 'If you cannot attend, please let the clinic know.',
    icsAttached: 'A calendar file (appointment.ics) is attached.',
    questionnairesHeading: 'Before your visit',
    questionnairesIntro: 'Please answer these questions before you come. They take a few minutes and help us prepare for you:',
    questionnairesButton: 'Answer the questions',
  },
  request: {
    subject: (provider) => `${provider}: We have received your booking request`,
    intro: 'Thank you. We have received your booking request for:',
    atClinic: (clinic) => `Preferred clinic: ${clinic}`,
    next: 'Our booking team will contact you to arrange a time. You do not need to do anything until then.',
    view: 'To view your request, open:',
    button: 'View your request',
  },
  cancellation: {
    subject: (provider, when) => `${provider}: Your appointment on ${when} is cancelled`,
    intro: (clinic, when) => `Your appointment at ${clinic} on ${when} is cancelled, as you asked:`,
    rebook: 'When you are ready, you can book a new appointment online:',
    button: 'Book an appointment',
    notYou: (phone) =>
      phone === null
        ? 'If you did not cancel this appointment, please contact the clinic.'
        : `If you did not cancel this appointment, please call the clinic on ${phone}.`,
  },
  reminder: {
    subject: (provider, when) => `${provider}: Reminder of your appointment on ${when}`,
    intro: (clinic, when) => `This is a reminder of your appointment at ${clinic} on ${when}:`,
    change: 'To see how to prepare, or to change or cancel it, open your appointment:',
    button: 'View your appointment',
    cannotCome: (phone) =>
      phone === null
        ? 'If you cannot come, please cancel or change it online, so that someone else can have the time.'
        : `If you cannot come, please cancel or change it online, or call us on ${phone}, so that someone else can have the time.`,
    yourDay: 'Your day',
    willYouCome: 'Will you come? Let us know with one tap:',
    yes: 'Yes, I will come',
    no: 'I cannot come',
  },
  waitlistOffer: {
    subject: (provider, when) => `${provider}: An earlier time is free: ${when}`,
    intro: (clinic, when) => `An earlier time has become free at ${clinic}: ${when}.`,
    held: (until) => `We are holding it for you until ${until}.`,
    current: 'Your appointment now:',
    take: 'To move your appointment to the earlier time, open the offer:',
    button: 'See the earlier time',
    firstWins:
      'A few patients waiting for an earlier time have been offered it: the first to take it gets it. If you take it, your current time is given to someone else. If you do nothing, your appointment stays as it is.',
  },
  waitlistTaken: {
    subject: (provider) => `${provider}: The earlier time has been taken`,
    intro: (clinic, when) => `The earlier time at ${clinic} on ${when} has been taken by another patient.`,
    stays: 'Your appointment stays as it was, and you stay on the waiting list for an earlier time.',
    view: 'To see your appointment:',
    button: 'View your appointment',
  },
  screeningReview: {
    approvedSubject: (provider, when) => `${provider}: Your appointment is confirmed – ${when}`,
    approvedIntro: (clinic, when) => `A radiographer has checked your answers: your appointment at ${clinic} on ${when} is confirmed.`,
    declinedSubject: (provider) => `${provider}: Your booking could not be confirmed`,
    declinedIntro: (clinic, when) =>
      `A radiographer has checked your answers. Your appointment at ${clinic} on ${when} cannot go ahead as booked, so it is cancelled.`,
    note: 'The radiographer’s note',
    expiredSubject: (provider) => `${provider}: Your booking could not be confirmed in time`,
    expiredIntro: (clinic, when) =>
      `We could not check your answers in time, so your appointment at ${clinic} on ${when} is cancelled and the time is free again.`,
    call: (phone) =>
      phone === null
        ? 'Please call the clinic to talk about your exam and to book a time.'
        : `Please call the clinic on ${phone} to talk about your exam and to book a time.`,
    view: 'To see your appointment:',
    button: 'View your appointment',
  },
  rescheduleRequest: {
    subject: (provider) => `${provider}: We have received your request to reschedule`,
    intro: (clinic, when) => `We have received your request to reschedule your appointment at ${clinic} on ${when}:`,
    keep: 'Your current time stays reserved for you until the clinic contacts you with a new one.',
    view: 'To view your appointment, open:',
    button: 'View your appointment',
  },
  otp: {
    subject: (provider) => `${provider}: Your verification code`,
    code: (provider, code) => `Your ${provider} verification code is ${code}.`,
    valid: (minutes) => `It is valid for ${minutes} minutes and can be used once.`,
    ignore: 'If you did not try to sign in, you can ignore this e-mail. Never share this code with anyone.',
  },
  resultsReady: {
    subject: (provider, exam) => `${provider}: Your ${exam} results are ready`,
    intro: (exam, date) => `The report of your ${exam} on ${date} is ready to view.`,
    button: 'View your results',
    need: 'You will need your date of birth, and we will send you a verification code.',
    doctor: 'Your referring doctor has your report too: please talk to them about what it means for you.',
    questionnairesHeading: 'How was your visit?',
    questionnairesIntro: 'Please tell us how you are after your visit. It takes a minute or two and helps us care for you:',
    questionnairesButton: 'Answer the questions',
  },
  share: {
    subject: (provider, who, history) =>
      `${provider}: ${who} has shared ${history ? 'their radiology history' : 'a radiology result'} with you`,
    intro: (who, provider, history) =>
      `${who} has shared ${history ? 'their radiology history' : 'a radiology result'} with you through the ${provider} patient portal.`,
    note: 'Their note:',
    button: 'Open the shared results',
    need: (who) => `You will need ${who}'s date of birth, and we will send a verification code to this address.`,
    until: (date, who) => `The link works until ${date}, unless ${who} withdraws it sooner.`,
    unknown: (who) => `If you do not know ${who}, you can ignore this e-mail.`,
  },
  referrer: {
    subject: (provider, patient, exam) => `${provider}: Report ready for ${patient} (${exam})`,
    intro: (patient, exam, date, accession) => `The report of ${patient}'s ${exam} on ${date} (accession ${accession}) is ready.`,
    button: 'Open the report and the images',
    private: 'The link is for you alone and works for 30 days. Every opening is recorded.',
  },
  callback: {
    subject: (provider, name) => `${provider}: Callback requested by ${name}`,
    intro: 'A patient has asked the call centre to phone them back.',
    name: 'Name',
    phone: 'Phone',
    windows: 'When to call',
    window: {
      weekdayMorning: 'Weekday morning (7:30 am to 12 pm)',
      weekdayAfternoon: 'Weekday afternoon (12 pm to 6 pm)',
      saturdayMorning: 'Saturday morning (8 am to 12 pm)',
      anyTime: 'Any time during opening hours',
    },
    exam: 'Exam they were booking',
    received: 'Received',
    reason: 'What the call is about, in their words:',
    button: 'Open the callback queue',
    after: 'Mark the request as called in the queue once you have spoken to the patient, so nobody calls twice.',
  },
};

/** The dictionary and the date locale of a portal locale. */
export function mailLanguageOf(locale: SupportedLocale): MailLanguage {
  return locale === 'mk' ? 'mk' : 'en';
}
