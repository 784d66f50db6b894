import { describe, expect, it } from 'vitest';
import { firstDayOfWeek, monthGrid } from '../../../../src-web/features/booking/booking-calendar';

describe('calendar', () => {
  it('should start the week today when weekStartsTodayEnabled, else on the locale week start', () => {
    expect(firstDayOfWeek('2026-11-26', true, 1)).toBe('2026-11-26');
    expect(firstDayOfWeek('2026-11-26', false, 1)).toBe('2026-11-23'); // Monday
    expect(firstDayOfWeek('2026-11-26', false, 0)).toBe('2026-11-22'); // Sunday (en-CA)
    expect(firstDayOfWeek('2026-11-23', false, 1)).toBe('2026-11-23');
  });

  it('should lay a month out in weeks from the week start', () => {
    const weeks = monthGrid('2026-11', 1);
    expect(weeks[0]).toEqual([null, null, null, null, null, null, '2026-11-01']); // 1 November 2026 is a Sunday
    expect(weeks.flat().filter(Boolean)).toHaveLength(30);
    expect(monthGrid('2026-11', 0)[0]?.[0]).toBe('2026-11-01');
  });
});
