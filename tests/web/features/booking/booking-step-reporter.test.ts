import { afterEach, describe, expect, it, vi } from 'vitest';
import { createStepReporter } from '../../../../src-web/features/booking/booking-step-reporter';

afterEach(() => {
  vi.useRealTimers();
});

describe('createStepReporter', () => {
  it('should report a step only after 2 s without another change', () => {
    vi.useFakeTimers();
    const report = vi.fn();
    const reporter = createStepReporter(report);
    reporter.stepChanged(1);
    vi.advanceTimersByTime(1999);
    expect(report).not.toHaveBeenCalled();
    reporter.stepChanged(2);
    vi.advanceTimersByTime(1999);
    expect(report).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(report).toHaveBeenCalledExactlyOnceWith(2);
  });

  it('should not report the same step twice in a row', () => {
    vi.useFakeTimers();
    const report = vi.fn();
    const reporter = createStepReporter(report);
    reporter.stepChanged(1);
    vi.advanceTimersByTime(2000);
    reporter.stepChanged(2);
    reporter.stepChanged(1);
    vi.advanceTimersByTime(2000);
    reporter.stepChanged(1);
    vi.advanceTimersByTime(2000);
    expect(report.mock.calls).toEqual([[1]]);
  });
});
