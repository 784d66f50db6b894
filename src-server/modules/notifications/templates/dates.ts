import { supportedLocaleOf, FALLBACK_LOCALE, type SupportedLocale } from '@contract/api/locales';
import { EN, mailLanguageOf, type MailWords } from './words';
import { MK } from './words-mk';

/** Dates, times and words of a mail in one locale and the clinic's time zone (never the server's). */
export interface MailDates {
  /** "Saturday 4 April 2026" */
  date(at: Date): string;
  /** "12:00 pm AEDT" */
  time(at: Date): string;
  /** "4 April 2026" */
  day(at: Date): string;
}

// Building an Intl.DateTimeFormat costs far more than using one; a deployment has a few zones.
const formats = new Map<string, MailDates>();

export function mailDates(locale: SupportedLocale, timeZone: string): MailDates {
  const key = `${locale}\0${timeZone}`;
  let found = formats.get(key);
  if (found === undefined) {
    const date = new Intl.DateTimeFormat(locale, { timeZone, weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });
    const time = new Intl.DateTimeFormat(locale, { timeZone, hour: 'numeric', minute: '2-digit', timeZoneName: 'short' });
    const day = new Intl.DateTimeFormat(locale, { timeZone, day: 'numeric', month: 'long', year: 'numeric' });
    found = { date: (at) => date.format(at), time: (at) => time.format(at), day: (at) => day.format(at) };
    formats.set(key, found);
  }
  return found;
}

const DICTIONARIES = { en: EN, mk: MK } as const;

export function wordsFor(locale: SupportedLocale): MailWords {
  return DICTIONARIES[mailLanguageOf(locale)];
}

/** A locale as given (a BCP 47 tag from settings), as one the mails are written in. */
export function mailLocale(locale: string | null | undefined): SupportedLocale {
  return supportedLocaleOf(locale) ?? FALLBACK_LOCALE;
}
