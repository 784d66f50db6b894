import type { FeedbackEntry, FeedbackFilter, FeedbackQuestionLabel } from '@contract/api/referrer-feedback';

/**
 * The staff's CSV export of referrer feedback (docs/rules/referrers.md#report-quality-feedback):
 * RFC 4180 text, UTF-8 with a byte order mark so Excel reads the names' accents and Cyrillic, one
 * column per question under the questionnaire's own title, choice answers in their words.
 */

/** Excel reads a file starting with this as UTF-8 (else as the machine's code page). */
export const UTF8_BOM = '\uFEFF';

/**
 * A cell as CSV: quoted when it holds a comma, quote or line break; a cell a spreadsheet would
 * run as a formula (beginning with = + - @, or a tab or carriage return before one) is prefixed
 * with ' so it stays text (OWASP "CSV injection"). A number is written as it is (a negative score is no formula).
 */
export function csvCell(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const csvRow = (cells: readonly (string | number | null)[]): string => cells.map(csvCell).join(',');

/** An answer in the referrer's words: the choice's text, the number, or the text given. */
function answerCell(label: FeedbackQuestionLabel | undefined, answer: unknown): string | number | null {
  if (answer === undefined || answer === null) return null;
  if (typeof answer === 'number') return label?.choices[String(answer)] ?? answer;
  if (typeof answer === 'string') return label?.choices[answer] ?? answer;
  if (typeof answer === 'boolean') return String(answer);
  return JSON.stringify(answer);
}

/** The instant as "YYYY-MM-DD HH:mm" in the filter's zone (the zone its days were chosen in), which spreadsheets read as a date. */
function localTime(iso: string, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(iso));
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((each) => each.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')}`;
}

/** The questions answered in these rows, in the questionnaires' order. */
function answeredQuestions(items: readonly FeedbackEntry[], questions: readonly FeedbackQuestionLabel[]): FeedbackQuestionLabel[] {
  const answered = new Set(items.flatMap((item) => Object.keys(item.answers)));
  const known = questions.filter((question) => answered.has(question.name));
  const knownNames = new Set(known.map((question) => question.name));
  // An answer to a question no definition names any more still gets its column, under its name.
  const unknown = [...answered].filter((name) => !knownNames.has(name)).sort();
  return [...known, ...unknown.map((name) => ({ name, title: name, rating: false, choices: {} }))];
}

export function feedbackCsv(items: readonly FeedbackEntry[], questions: readonly FeedbackQuestionLabel[], filter: FeedbackFilter): string {
  const columns = answeredQuestions(items, questions);
  const header = [
    `Date (${filter.timeZone})`,
    'Referrer',
    'Provider number',
    'Patient',
    'Exam',
    'Modality',
    'Accession number',
    'Given via',
    ...columns.map((question) => question.title),
  ];
  const rows = items.map((item) => [
    localTime(item.createdAt, filter.timeZone),
    item.referrerName,
    item.referrerProviderNumber,
    item.patientName,
    item.examName,
    item.modalityName ?? item.modalityCode,
    item.accessionNumber,
    item.givenVia === 'imsec' ? 'link' : 'signed in',
    ...columns.map((question) => answerCell(question, item.answers[question.name])),
  ]);
  return `${UTF8_BOM}${[header, ...rows].map(csvRow).join('\r\n')}\r\n`;
}

/** The file's name: the range it covers, else the day it was made. */
export function feedbackCsvFileName(filter: FeedbackFilter, today: string): string {
  const range = filter.from !== undefined || filter.to !== undefined ? `${filter.from ?? 'start'}_to_${filter.to ?? today}` : today;
  return `referrer-feedback_${range}.csv`;
}
