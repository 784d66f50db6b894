import { describe, expect, it } from 'vitest';
import { isoWeekday, openIntervals, subtractBreaks, type ResourceSchedule } from '../../../../src-server/modules/schedule/schedule';

/** A resource open the same hours every day of the week. */
function everyDay(opens: number, closes: number, overrides: Partial<ResourceSchedule> = {}): ResourceSchedule {
  return {
    resourceId: 'r1',
    clinicId: 'c1',
    modalityId: 'm1',
    timeZone: 'Australia/Sydney',
    weeklyHours: new Map([1, 2, 3, 4, 5, 6, 7].map((weekday) => [weekday, [[opens, closes] as const]])),
    breaks: [],
    closedDates: new Set(),
    ...overrides,
  };
}

const iso = (ms: number): string => new Date(ms).toISOString();

describe('schedule', () => {
  it('isoWeekday numbers Monday 1 to Sunday 7', () => {
    expect(isoWeekday('2026-03-09')).toBe(1);
    expect(isoWeekday('2026-03-15')).toBe(7);
    expect(isoWeekday('2024-02-29')).toBe(4);
  });

  it('subtractBreaks cuts breaks out of opening spans, also breaks that overlap an edge', () => {
    expect(subtractBreaks([[420, 1140]], [[750, 780]])).toEqual([
      [420, 750],
      [780, 1140],
    ]);
    expect(
      subtractBreaks(
        [[480, 720]],
        [
          [450, 500],
          [700, 800],
        ],
      ),
    ).toEqual([[500, 700]]);
    expect(subtractBreaks([[480, 720]], [[480, 720]])).toEqual([]);
  });

  it('turns wall-clock hours into instants in the clinic zone, on both sides of the October change', () => {
    const schedule = everyDay(7 * 60, 19 * 60);
    // Saturday 3 October 2026: standard time (UTC+10).
    expect(openIntervals(schedule, '2026-10-03').map(([a, b]) => [iso(a), iso(b)])).toEqual([
      ['2026-10-02T21:00:00.000Z', '2026-10-03T09:00:00.000Z'],
    ]);
    // Monday 5 October 2026: daylight time (UTC+11).
    expect(openIntervals(schedule, '2026-10-05').map(([a, b]) => [iso(a), iso(b)])).toEqual([
      ['2026-10-04T20:00:00.000Z', '2026-10-05T08:00:00.000Z'],
    ]);
  });

  it('on the spring-forward day (Sunday 4 October 2026) 01:00-04:00 lasts two real hours', () => {
    const [interval] = openIntervals(everyDay(60, 240), '2026-10-04');
    expect(interval).toBeDefined();
    const [opens, closes] = interval ?? [0, 0];
    expect(iso(opens)).toBe('2026-10-03T15:00:00.000Z'); // 01:00 AEST
    expect(iso(closes)).toBe('2026-10-03T17:00:00.000Z'); // 04:00 AEDT
  });

  it('on the fall-back day (Sunday 5 April 2026) 01:00-04:00 lasts four real hours', () => {
    const [interval] = openIntervals(everyDay(60, 240), '2026-04-05');
    expect(interval?.map(iso)).toEqual(['2026-04-04T14:00:00.000Z', '2026-04-04T18:00:00.000Z']);
  });

  it('is closed on closed dates and on weekdays without hours; breaks split the day', () => {
    const schedule = everyDay(7 * 60, 19 * 60, { closedDates: new Set(['2026-03-20']), breaks: [[12 * 60 + 30, 13 * 60]] });
    expect(openIntervals(schedule, '2026-03-20')).toEqual([]);
    expect(openIntervals(schedule, '2026-03-19')).toHaveLength(2);
    const weekdaysOnly = everyDay(7 * 60, 19 * 60, { weeklyHours: new Map([[1, [[420, 1140] as const]]]) });
    expect(openIntervals(weekdaysOnly, '2026-03-17')).toEqual([]);
    expect(openIntervals(weekdaysOnly, '2026-03-16')).toHaveLength(1);
  });

  it('keeps a Perth clinic on its own clock (no daylight saving, UTC+8)', () => {
    const [interval] = openIntervals(everyDay(8 * 60, 17 * 60, { timeZone: 'Australia/Perth' }), '2026-10-05');
    expect(interval?.map(iso)).toEqual(['2026-10-05T00:00:00.000Z', '2026-10-05T09:00:00.000Z']);
  });
});
