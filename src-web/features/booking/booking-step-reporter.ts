/** The wait before a step change is reported: 2 s (docs/rules/booking.md#step-reports). */
export const STEP_REPORT_DELAY_MS = 2000;

export interface StepReporter {
  /** Call on every step change; the step is reported after the delay, and only if it differs. */
  stepChanged(step: number): void;
  dispose(): void;
}

/**
 * Reports booking step changes after a quiet period, and only when the step differs from the
 * last one reported: quick back-and-forth between steps reports nothing.
 */
export function createStepReporter(report: (step: number) => void, delayMs = STEP_REPORT_DELAY_MS): StepReporter {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let lastReported: number | null = null;
  return {
    stepChanged(step) {
      if (timer !== undefined) clearTimeout(timer);
      timer = setTimeout(() => {
        timer = undefined;
        if (step === lastReported) return;
        lastReported = step;
        report(step);
      }, delayMs);
    },
    dispose() {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    },
  };
}

/**
 * The default report: a console line for support, and a `portal:booking-step` event on window
 * that the consented analytics loader reports (docs/rules/analytics.md) and a provider's own tag can listen to.
 */
export function reportStepToWindow(win: Window): (step: number) => void {
  return (step) => {
    console.info(`[booking] step ${step}`);
    win.dispatchEvent(new CustomEvent('portal:booking-step', { detail: { step } }));
  };
}
