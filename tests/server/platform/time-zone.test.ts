import { describe, expect, it } from 'vitest';
import { addDays, isValidTimeZone, localDate, zonedTimeToInstant } from '../../../src-server/platform/time-zone';

describe('zonedTimeToInstant', () => {
  it.each([
    // Sydney: daylight time (UTC+11) until the first Sunday of April, standard (UTC+10) after.
    ['2026-03-09', '09:30', 'Australia/Sydney', '2026-03-08T22:30:00.000Z'],
    ['2026-04-06', '09:30', 'Australia/Sydney', '2026-04-05T23:30:00.000Z'],
    // Brisbane never changes.
    ['2026-01-15', '09:30', 'Australia/Brisbane', '2026-01-14T23:30:00.000Z'],
    ['2026-07-15', '09:30', 'Australia/Brisbane', '2026-07-14T23:30:00.000Z'],
    ['2026-07-15', '00:00', 'UTC', '2026-07-15T00:00:00.000Z'],
    // The hour after the October jump: 02:30 does not exist in Sydney on 2026-10-04.
    ['2026-10-04', '03:30', 'Australia/Sydney', '2026-10-03T16:30:00.000Z'],
  ])('%s %s in %s is %s', (date, time, zone, expected) => {
    expect(zonedTimeToInstant(date, time, zone).toISOString()).toBe(expected);
  });

  it('maps a time skipped by the daylight-saving jump to a real instant near it', () => {
    const instant = zonedTimeToInstant('2026-10-04', '02:30', 'Australia/Sydney');
    expect(['2026-10-03T15:30:00.000Z', '2026-10-03T16:30:00.000Z']).toContain(instant.toISOString());
  });
});

describe('localDate and addDays', () => {
  it("gives the clinic's calendar date, which can differ from UTC's", () => {
    const instant = new Date('2026-03-09T20:00:00Z');
    expect(localDate(instant, 'Australia/Sydney')).toBe('2026-03-10');
    expect(localDate(instant, 'UTC')).toBe('2026-03-09');
  });

  it('adds days across month and year ends', () => {
    expect(addDays('2026-12-30', 3)).toBe('2027-01-02');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
  });

  it('knows a real zone from a made-up one', () => {
    expect(isValidTimeZone('Australia/Perth')).toBe(true);
    expect(isValidTimeZone('Mars/Olympus_Mons')).toBe(false);
  });
});
