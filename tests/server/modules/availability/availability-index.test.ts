import { describe, expect, it } from 'vitest';
import { AvailabilityIndex } from '../../../../src-server/modules/availability/availability-index';
import { localDateOf, localMidnight } from '../../../../src-server/modules/schedule/zone-days';
import type { ResourceSchedule } from '../../../../src-server/modules/schedule/schedule';

const MINUTE = 60_000;
const RULES = { leadMinutes: 120, horizonDays: 90, slotStepMinutes: 15 };

function resource(resourceId: string, overrides: Partial<ResourceSchedule> = {}): ResourceSchedule {
  return {
    resourceId,
    clinicId: 'clinic',
    modalityId: 'ct',
    timeZone: 'Australia/Sydney',
    weeklyHours: new Map([1, 2, 3, 4, 5, 6, 7].map((weekday) => [weekday, [[8 * 60, 12 * 60] as const]])),
    breaks: [],
    closedDates: new Set(),
    ...overrides,
  };
}

function index(schedules: ResourceSchedule[] = [resource('r1')]): AvailabilityIndex {
  return new AvailabilityIndex(RULES, [{ id: 'clinic', slug: 'clinic', timeZone: 'Australia/Sydney' }], schedules);
}

const at = (date: string, time: string): number => Date.parse(`${date}T${time}:00+11:00`);
// Monday 16 March 2026 09:00 Sydney (UTC+11).
const NOW = at('2026-03-16', '09:00');
const localTimes = (starts: number[]): string[] =>
  starts.map((start) =>
    new Intl.DateTimeFormat('en-GB', { timeZone: 'Australia/Sydney', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(start),
  );

describe('AvailabilityIndex', () => {
  it('offers grid starts that fit before closing, after now + lead time', () => {
    const free = index().freeStarts('clinic', 'ct', 30, '2026-03-16', NOW);
    expect(localTimes(free)).toEqual(['11:00', '11:15', '11:30']);
    expect(index().freeStarts('clinic', 'ct', 30, '2026-03-17', NOW)).toHaveLength(15);
  });

  it('removes starts that would overlap a booking, and gives them back when it is removed', () => {
    const subject = index();
    subject.add([{ id: 'a1', resourceId: 'r1', start: at('2026-03-17', '09:00'), end: at('2026-03-17', '09:45'), holdExpiresAt: null }]);
    const times = localTimes(subject.freeStarts('clinic', 'ct', 30, '2026-03-17', NOW));
    expect(times).toEqual(['08:00', '08:15', '08:30', '09:45', '10:00', '10:15', '10:30', '10:45', '11:00', '11:15', '11:30']);
    subject.remove(['a1']);
    expect(subject.freeStarts('clinic', 'ct', 30, '2026-03-17', NOW)).toHaveLength(15);
  });

  it('counts a hold until it expires and not after', () => {
    const subject = index();
    const expires = NOW + 10 * MINUTE;
    subject.add([{ id: 'h1', resourceId: 'r1', start: at('2026-03-17', '10:00'), end: at('2026-03-17', '10:30'), holdExpiresAt: expires }]);
    expect(localTimes(subject.freeStarts('clinic', 'ct', 30, '2026-03-17', NOW))).not.toContain('10:00');
    expect(localTimes(subject.freeStarts('clinic', 'ct', 30, '2026-03-17', expires))).toContain('10:00');
  });

  it('unions several resources: a start is free when any resource is free for the whole duration', () => {
    const subject = index([resource('r1'), resource('r2')]);
    subject.add([
      { id: 'a', resourceId: 'r1', start: at('2026-03-17', '08:00'), end: at('2026-03-17', '12:00'), holdExpiresAt: null },
      { id: 'b', resourceId: 'r2', start: at('2026-03-17', '08:00'), end: at('2026-03-17', '11:00'), holdExpiresAt: null },
    ]);
    expect(localTimes(subject.freeStarts('clinic', 'ct', 60, '2026-03-17', NOW))).toEqual(['11:00']);
    const { scheduled, free } = subject.candidates('clinic', 'ct', 60, at('2026-03-17', '11:00'), NOW);
    expect(scheduled).toEqual(['r1', 'r2']);
    expect(free).toEqual(['r2']);
  });

  it('refuses candidates off the grid, before the lead time, outside hours or beyond the horizon', () => {
    const subject = index();
    expect(subject.candidates('clinic', 'ct', 30, at('2026-03-17', '09:05'), NOW).scheduled).toEqual([]);
    expect(subject.candidates('clinic', 'ct', 30, at('2026-03-16', '10:00'), NOW).scheduled).toEqual([]);
    expect(subject.candidates('clinic', 'ct', 30, at('2026-03-17', '11:45'), NOW).scheduled).toEqual([]);
    expect(subject.candidates('clinic', 'ct', 30, Date.parse('2026-06-16T00:00:00+10:00'), NOW).scheduled).toEqual([]);
    expect(subject.candidates('clinic', 'ct', 30, at('2026-03-17', '11:30'), NOW).scheduled).toEqual(['r1']);
  });

  it('handles the spring-forward day: 01:00-04:00 on 4 October 2026 has 8 quarter-hour starts', () => {
    const subject = index([resource('r1', { weeklyHours: new Map([[7, [[60, 240] as const]]]) })]);
    const now = Date.parse('2026-09-30T00:00:00Z');
    const free = subject.freeStarts('clinic', 'ct', 15, '2026-10-04', now);
    expect(localTimes(free)).toEqual(['01:00', '01:15', '01:30', '01:45', '03:00', '03:15', '03:30', '03:45']);
  });

  it('nextFreeStart finds the first free start within the horizon', () => {
    const subject = index([resource('r1', { weeklyHours: new Map([[3, [[8 * 60, 9 * 60] as const]]]) })]);
    expect(new Date(subject.nextFreeStart('clinic', 'ct', 60, NOW) ?? 0).toISOString()).toBe('2026-03-17T21:00:00.000Z');
    expect(subject.nextFreeStart('clinic', 'other-modality', 60, NOW)).toBeNull();
  });

  it('dayJson reuses a rendered day until a write, a hold expiry or the lead-time cut-off changes it', () => {
    const subject = index();
    let renders = 0;
    const render = (starts: readonly number[]): string => {
      renders += 1;
      return JSON.stringify(starts.length);
    };
    expect(subject.dayJson('clinic', 'ct', 30, '2026-03-17', NOW, render)).toBe('15');
    expect(subject.dayJson('clinic', 'ct', 30, '2026-03-17', NOW + MINUTE, render)).toBe('15');
    expect(renders).toBe(1);
    subject.add([
      { id: 'h', resourceId: 'r1', start: at('2026-03-17', '08:00'), end: at('2026-03-17', '08:30'), holdExpiresAt: NOW + 5 * MINUTE },
    ]);
    expect(subject.dayJson('clinic', 'ct', 30, '2026-03-17', NOW, render)).toBe('13');
    expect(subject.dayJson('clinic', 'ct', 30, '2026-03-17', NOW + 5 * MINUTE, render)).toBe('15');
    // Today: the answer shrinks as now + lead passes each grid time.
    expect(subject.dayJson('clinic', 'ct', 30, '2026-03-16', NOW, render)).toBe('3');
    expect(subject.dayJson('clinic', 'ct', 30, '2026-03-16', NOW + 14 * MINUTE, render)).toBe('2');
    expect(subject.dayJson('clinic', 'ct', 30, '2026-03-16', NOW + 16 * MINUTE, render)).toBe('1');
  });

  it('fills a resource from columns, as the store does, sorted or not, and removes their entries by id', () => {
    const subject = index([resource('r1'), resource('r2')]);
    const day = '2026-03-17';
    const columns = {
      // Out of order on purpose: the index sorts what is not sorted.
      ids: ['b', 'a'],
      starts: [at(day, '10:00'), at(day, '08:00')],
      ends: [at(day, '12:00'), at(day, '09:00')],
      expires: [Number.POSITIVE_INFINITY, NOW + 10 * MINUTE],
    };
    subject.replaceResourceColumns(['r1', 'r2'], new Map([['r1', columns]]));
    expect(subject.size).toBe(2);
    expect(subject.overlapping('r1', at(day, '08:30'), at(day, '08:45'), NOW)).toBe(true);
    // The hold counts until it expires.
    expect(subject.overlapping('r1', at(day, '08:30'), at(day, '08:45'), NOW + 10 * MINUTE)).toBe(false);
    expect(subject.overlapping('r2', at(day, '08:30'), at(day, '08:45'), NOW)).toBe(false);
    subject.remove(['b']);
    expect(subject.overlapping('r1', at(day, '10:30'), at(day, '10:45'), NOW)).toBe(false);
    expect(subject.size).toBe(1);
    subject.replaceResourceColumns(['r1'], new Map());
    expect(subject.size).toBe(0);
  });

  it('localDateOf and localMidnight agree with Intl around midnight and DST', () => {
    expect(localMidnight('2026-04-05', 'Australia/Sydney')).toBe(Date.parse('2026-04-04T13:00:00Z'));
    expect(localMidnight('2026-04-06', 'Australia/Sydney')).toBe(Date.parse('2026-04-05T14:00:00Z'));
    expect(localDateOf(Date.parse('2026-04-05T13:59:00Z'), 'Australia/Sydney', '2026-04-05')).toBe('2026-04-05');
    expect(localDateOf(Date.parse('2026-04-05T14:00:00Z'), 'Australia/Sydney', '2026-04-05')).toBe('2026-04-06');
    expect(localDateOf(Date.parse('2026-04-05T14:00:00Z'), 'Australia/Sydney', '2026-01-01')).toBe('2026-04-06');
  });
});
