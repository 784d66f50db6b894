const formatters = new Map<string, Intl.DateTimeFormat>();

/**
 * A cached Intl.DateTimeFormat: constructing one costs a millisecond or more (locale data is
 * loaded on first use), far too much to repeat on every render of a calendar.
 */
export function dateTimeFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let cached = formatters.get(key);
  if (!cached) {
    cached = new Intl.DateTimeFormat(locale, options);
    formatters.set(key, cached);
  }
  return cached;
}

const pad = (value: number) => String(value).padStart(2, '0');

/** The calendar date (YYYY-MM-DD) of an instant in a time zone (the browser's own zone when none is given). */
export function localDate(instant: Date, timeZone?: string): string {
  if (timeZone === undefined) return `${instant.getFullYear()}-${pad(instant.getMonth() + 1)}-${pad(instant.getDate())}`;
  // en-CA formats dates as YYYY-MM-DD.
  return dateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(instant);
}

/**
 * A calendar date (YYYY-MM-DD, such as a date of birth) in the reader's words, the same on every
 * page that shows it: the date itself, never shifted by a time zone.
 */
export function formatCalendarDate(isoDate: string, locale: string): string {
  return dateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${isoDate}T00:00:00Z`));
}
