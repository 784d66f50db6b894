import { describe, expect, it } from 'vitest';
import { createTestClock, systemClock } from '../../../src-server/platform/clock';

describe('clocks', () => {
  it('the test clock stands still until moved', () => {
    const clock = createTestClock('2026-03-10T01:00:00Z');
    expect(clock.now().toISOString()).toBe('2026-03-10T01:00:00.000Z');
    expect(clock.now().toISOString()).toBe('2026-03-10T01:00:00.000Z');
    clock.advance(90_000);
    expect(clock.now().toISOString()).toBe('2026-03-10T01:01:30.000Z');
    clock.set('2027-01-01T00:00:00Z');
    expect(clock.now().toISOString()).toBe('2027-01-01T00:00:00.000Z');
    expect(() => createTestClock('not a date')).toThrow(/not a date/);
  });

  it('the system clock follows real time', () => {
    const before = Date.now();
    const now = systemClock.now().getTime();
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now - before).toBeLessThan(1000);
  });
});
