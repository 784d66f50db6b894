/** An exam's date as the results mails write it, in the clinic's time zone: "12 November 2026". */
export function examDateInWords(startsAt: string, timeZone: string): string {
  return new Date(startsAt).toLocaleDateString('en-AU', { day: 'numeric', month: 'long', year: 'numeric', timeZone });
}
