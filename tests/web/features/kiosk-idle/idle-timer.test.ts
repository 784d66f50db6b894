import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IdleTimer, type IdleClock } from '../../../../src-web/features/kiosk-idle/idle-timer';
import { ACTIVITY_THROTTLE_MS, INACTIVITY_COUNTDOWN_SECONDS } from '../../../../src-web/features/kiosk-idle/kiosk-idle-constants';

/** The global timers, which vi.useFakeTimers() replaces. */
const fakeClock: IdleClock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

const IDLE_MS = 90_000;

function timerWith(clock: IdleClock = fakeClock) {
  const events: string[] = [];
  const timer = new IdleTimer({
    idleMs: IDLE_MS,
    countdownSeconds: INACTIVITY_COUNTDOWN_SECONDS,
    throttleMs: ACTIVITY_THROTTLE_MS,
    clock,
    onCountdown: (seconds) => events.push(`countdown ${seconds}`),
    onResume: () => events.push('resume'),
    onExpire: () => events.push('expire'),
  });
  return { timer, events };
}

describe('IdleTimer', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: new Date('2031-05-04T10:00:00Z') });
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('should open a 10-second countdown after the idle time, count each second, then expire', () => {
    const { timer, events } = timerWith();
    timer.start();
    vi.advanceTimersByTime(IDLE_MS - 1);
    expect(events).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(events).toEqual(['countdown 10']);
    expect(timer.phase).toBe('counting');
    vi.advanceTimersByTime(9_000);
    expect(events.at(-1)).toBe('countdown 1');
    expect(events).toHaveLength(10);
    vi.advanceTimersByTime(999);
    expect(events.at(-1)).toBe('countdown 1');
    vi.advanceTimersByTime(1);
    expect(events.at(-1)).toBe('expire');
    expect(timer.phase).toBe('expired');
    vi.advanceTimersByTime(IDLE_MS * 2);
    expect(events.filter((event) => event === 'expire')).toHaveLength(1);
  });

  it('should wait the idle time again from the latest activity', () => {
    const { timer, events } = timerWith();
    timer.start();
    vi.advanceTimersByTime(60_000);
    timer.activity();
    vi.advanceTimersByTime(IDLE_MS - 1);
    expect(events).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(events).toEqual(['countdown 10']);
  });

  it('should count activity at most once per 500 ms', () => {
    const { timer, events } = timerWith();
    timer.start();
    vi.advanceTimersByTime(1_000);
    timer.activity(); // counted: 1 000
    vi.advanceTimersByTime(ACTIVITY_THROTTLE_MS - 1);
    timer.activity(); // ignored: 499 ms after the last counted one
    // The idle time runs from the counted activity, not the ignored one.
    vi.advanceTimersByTime(IDLE_MS - ACTIVITY_THROTTLE_MS + 1);
    expect(events).toEqual(['countdown 10']);
  });

  it('should dismiss the countdown on activity and watch again', () => {
    const { timer, events } = timerWith();
    timer.start();
    vi.advanceTimersByTime(IDLE_MS + 3_000);
    expect(events.at(-1)).toBe('countdown 7');
    timer.activity();
    expect(events.at(-1)).toBe('resume');
    expect(timer.phase).toBe('watching');
    vi.advanceTimersByTime(IDLE_MS - 1);
    expect(events.at(-1)).toBe('resume');
    vi.advanceTimersByTime(1);
    expect(events.at(-1)).toBe('countdown 10');
  });

  it('should resume on Cancel even right after a counted activity (no throttle)', () => {
    const { timer, events } = timerWith();
    timer.start();
    vi.advanceTimersByTime(IDLE_MS);
    timer.activity();
    vi.advanceTimersByTime(IDLE_MS);
    timer.resume();
    expect(events).toEqual(['countdown 10', 'resume', 'countdown 10', 'resume']);
  });

  it('should expire at once on Home, and only when running', () => {
    const { timer, events } = timerWith();
    timer.expireNow();
    expect(events).toEqual([]);
    timer.start();
    vi.advanceTimersByTime(IDLE_MS + 2_000);
    timer.expireNow();
    expect(events.at(-1)).toBe('expire');
    vi.advanceTimersByTime(60_000);
    expect(events.filter((event) => event === 'expire')).toHaveLength(1);
  });

  it('should do nothing after stop, and start afresh', () => {
    const { timer, events } = timerWith();
    timer.start();
    vi.advanceTimersByTime(IDLE_MS - 10);
    timer.stop();
    vi.advanceTimersByTime(IDLE_MS * 3);
    expect(events).toEqual([]);
    timer.start();
    vi.advanceTimersByTime(IDLE_MS);
    expect(events).toEqual(['countdown 10']);
  });

  it('should land on the right second when a timer fires late, and expire at once past the countdown (a machine that slept)', () => {
    let now = Date.parse('2031-05-04T10:00:00Z');
    const pending: { at: number; run: () => void }[] = [];
    const sleepyClock: IdleClock = {
      now: () => now,
      setTimeout: (run, ms) => pending.push({ at: now + ms, run }),
      clearTimeout: () => undefined,
    };
    const fireLate = (at: number) => {
      now = at;
      pending.splice(0).forEach((entry) => entry.run());
    };
    const { timer, events } = timerWith(sleepyClock);
    timer.start();
    const start = now;
    fireLate(start + IDLE_MS + 4_200);
    expect(events).toEqual(['countdown 6']);
    fireLate(start + IDLE_MS * 10);
    expect(events).toEqual(['countdown 6', 'expire']);
  });

  it('should let the hardware idle time shorten the wait but never lengthen it', () => {
    const { timer, events } = timerWith();
    timer.start();
    vi.advanceTimersByTime(30_000);
    timer.reportSystemIdle(0);
    timer.reportSystemIdle(10);
    vi.advanceTimersByTime(IDLE_MS - 30_000 - 1);
    expect(events).toEqual([]);
    timer.reportSystemIdle(IDLE_MS / 1000 + 2);
    expect(events).toEqual(['countdown 8']);
  });

  it('should expire (fail closed) when a step of the cycle throws', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const events: string[] = [];
    const timer = new IdleTimer({
      idleMs: IDLE_MS,
      countdownSeconds: INACTIVITY_COUNTDOWN_SECONDS,
      throttleMs: ACTIVITY_THROTTLE_MS,
      clock: fakeClock,
      onCountdown: () => {
        throw new Error('the dialog could not open');
      },
      onResume: () => events.push('resume'),
      onExpire: () => events.push('expire'),
    });
    timer.start();
    vi.advanceTimersByTime(IDLE_MS);
    expect(events).toEqual(['expire']);
    expect(timer.phase).toBe('expired');
  });

  it('should refuse an idle time or countdown that is not positive', () => {
    const options = { countdownSeconds: 10, throttleMs: 500, clock: fakeClock, onCountdown() {}, onResume() {}, onExpire() {} };
    expect(() => new IdleTimer({ ...options, idleMs: 0 })).toThrow();
    expect(() => new IdleTimer({ ...options, idleMs: Number.NaN })).toThrow();
    expect(() => new IdleTimer({ ...options, idleMs: 1000, countdownSeconds: 0 })).toThrow();
  });
});
