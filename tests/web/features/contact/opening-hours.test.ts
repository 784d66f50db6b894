import { describe, expect, it } from 'vitest';
import { formatTime, openingDays, weekdayName } from '../../../../src-web/features/contact/opening-hours';

describe('openingDays', () => {
  const hours = [
    { weekday: 7, opens: '09:00', closes: '12:00' },
    { weekday: 1, opens: '13:00', closes: '17:00' },
    { weekday: 1, opens: '08:00', closes: '12:00' },
  ];

  it('should list the week from Monday with intervals in time order', () => {
    const days = openingDays(hours, 1);
    expect(days.map((day) => day.weekday)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(days[0]?.intervals).toEqual([
      { opens: '08:00', closes: '12:00' },
      { opens: '13:00', closes: '17:00' },
    ]);
    expect(days[1]?.intervals).toEqual([]);
  });

  it('should list the week from Sunday when the locale starts it there', () => {
    expect(openingDays(hours, 0).map((day) => day.weekday)).toEqual([7, 1, 2, 3, 4, 5, 6]);
  });

  it('should name weekdays and times in the locale', () => {
    expect(weekdayName(1, 'en-AU')).toBe('Monday');
    expect(weekdayName(7, 'mk')).toBe('недела');
    expect(formatTime('07:30', 'mk')).toBe('7:30');
    expect(formatTime('17:05', 'en-AU')).toMatch(/^5:05\s?pm$/);
  });
});
