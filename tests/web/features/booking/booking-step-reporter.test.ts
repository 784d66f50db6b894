import { afterEach, describe, expect, it, vi } from 'vitest';
import { createStepReporter } from '../../../../src-web/features/booking/booking-step-reporter';

afterEach(() => {
  vi.useRealTimers();
});

/** A reporter whose reports are recorded, on fake timers (the 2 s wait is advanced by hand). */
function reporterOnFakeTimers() {
  vi.useFakeTimers();
  const report = vi.fn();
  return { report, reporter: createStepReporter(report) };
}

describe('createStepReporter', () => {
  it('should report a step only after 2 s without another change', () => {
    const { report, reporter } = reporterOnFakeTimers();
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
    const { report, reporter } = reporterOnFakeTimers();
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
