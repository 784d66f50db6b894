import type { FeedbackQuestionLabel } from '@contract/api/referrer-feedback';
import { dateTimeFormat } from '../../platform/dates';

/** The questions by name, as the API sent them. */
export type QuestionLabels = ReadonlyMap<string, FeedbackQuestionLabel>;

/** An answer in the referrer's words: the choice's text, else the number or text given; null when unanswered. */
export function answerWords(label: FeedbackQuestionLabel | undefined, answer: unknown): string | null {
  if (answer === undefined || answer === null || answer === '') return null;
  if (typeof answer === 'string' || typeof answer === 'number') return label?.choices[String(answer)] ?? String(answer);
  if (typeof answer === 'boolean') return String(answer);
  return JSON.stringify(answer);
}

/** A question and its answer as the referrer read them: "How clear was the report? 4.5", "Comment: Good". */
export function answerText(labels: QuestionLabels, question: string, answer: unknown, none: string): string {
  const title = labels.get(question)?.title ?? question;
  return `${title}${/[?:]$/.test(title) ? '' : ':'} ${answerWords(labels.get(question), answer) ?? none}`;
}

/** When the feedback was given: the locale's one medium date with the time (as every staff page writes it). */
export const formatGivenAt = (iso: string, locale: string): string =>
  dateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

/**
 * The date pickers' format, built from the locale's medium date (platform/dates formatCalendarDate)
 * as dayjs tokens, so a picked day reads as the table's dates do ("14 Mar 2026", "Mar 14, 2026")
 * and can be typed that way too.
 */
export function pickerFormat(locale: string): string {
  const parts = dateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).formatToParts(new Date(Date.UTC(2026, 2, 4)));
  return parts
    .map((part) => {
      if (part.type === 'day') return part.value.length === 2 ? 'DD' : 'D';
      if (part.type === 'month') return /^\d+$/.test(part.value) ? (part.value.length === 2 ? 'MM' : 'M') : 'MMM';
      if (part.type === 'year') return 'YYYY';
      return part.value === '' ? '' : `[${part.value}]`;
    })
    .join('');
}
