/**
 * Time is injected, never read from Date.now() inside domain code, so tests can travel
 * (docs/server.md#clock).
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = {
  now: () => new Date(),
};

/** A clock that stands still until a test moves it. */
export interface TestClock extends Clock {
  set(instant: Date | string): void;
  advance(milliseconds: number): void;
}

export function createTestClock(start: Date | string): TestClock {
  let current = new Date(start).getTime();
  if (Number.isNaN(current)) throw new Error(`createTestClock: not a date: ${String(start)}`);
  return {
    now: () => new Date(current),
    set: (instant) => {
      const next = new Date(instant).getTime();
      if (Number.isNaN(next)) throw new Error(`TestClock.set: not a date: ${String(instant)}`);
      current = next;
    },
    advance: (milliseconds) => {
      current += milliseconds;
    },
  };
}
