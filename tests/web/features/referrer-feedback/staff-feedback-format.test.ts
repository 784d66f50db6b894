import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { answerWords, pickerFormat } from '../../../../src-web/features/referrer-feedback/staff-feedback-format';
import { formatCalendarDate } from '../../../../src-web/platform/dates';

// The date pickers of the staff feedback table write a day as the locale's one medium date does.

describe('staff feedback formats', () => {
  it.each(['en', 'en-AU', 'en-NZ', 'en-CA'])('should write a picked day as formatCalendarDate does in %s', (locale) => {
    for (const day of ['2026-03-04', '2026-12-25', '2027-01-31']) {
      expect(dayjs(day).format(pickerFormat(locale))).toBe(formatCalendarDate(day, locale));
    }
  });

  it('should read a typed day back in the same format', () => {
    expect(pickerFormat('en-AU')).toBe('D[ ]MMM[ ]YYYY');
    expect(pickerFormat('en')).toBe('MMM[ ]D[, ]YYYY');
  });

  it("should give a choice's words, else the answer, and null when unanswered", () => {
    const label = { name: 'again', title: 'Again?', rating: false, choices: { yes: 'Yes, certainly' } };
    expect(answerWords(label, 'yes')).toBe('Yes, certainly');
    expect(answerWords(label, 'maybe')).toBe('maybe');
    expect(answerWords(undefined, 4)).toBe('4');
    expect(answerWords(label, undefined)).toBeNull();
    expect(answerWords(label, '')).toBeNull();
  });
});
