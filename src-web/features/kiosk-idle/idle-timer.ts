/** The timers the idle timer runs on; injected so tests drive them (the page passes its window's). */
export interface IdleClock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface IdleTimerOptions {
  /** Time without activity before the countdown opens. */
  idleMs: number;
  countdownSeconds: number;
  /** Activity closer than this to the last counted one is ignored. */
  throttleMs: number;
  clock: IdleClock;
  /** The countdown opened or moved on: whole seconds left (at least 1). */
  onCountdown(remainingSeconds: number): void;
  /** Activity ended the countdown; idle watching goes on. */
  onResume(): void;
  /** The countdown ran out, or the timer failed (fail closed): the session must end now. */
  onExpire(): void;
}

/** stopped → watching → counting down → (activity: watching again) or expired. */
export type IdlePhase = 'stopped' | 'watching' | 'counting' | 'expired';

/**
 * The kiosk idle cycle without the DOM (docs/rules/kiosk.md#inactivity): after `idleMs` without activity a
 * countdown of `countdownSeconds` opens; activity during it resumes watching; its end expires.
 *
 * Everything is measured from the clock, not by counting ticks: a timer that fires late (a
 * machine that slept) lands at the right point, and past the countdown's end it expires at once.
 * A callback that throws expires too: when the timer cannot run, the session ends.
 */
export class IdleTimer {
  private state: IdlePhase = 'stopped';
  private lastActivityAt = 0;
  private countdownEndsAt = 0;
  private handle: unknown = null;
  private readonly options: IdleTimerOptions;

  constructor(options: IdleTimerOptions) {
    if (!(options.idleMs > 0) || !(options.countdownSeconds > 0)) throw new Error('[kiosk-idle] idle time and countdown must be positive');
    this.options = options;
  }

  get phase(): IdlePhase {
    return this.state;
  }

  /** Starts watching from now. Throws when the clock cannot schedule (the caller fails closed). */
  start(): void {
    if (this.state === 'watching' || this.state === 'counting') return;
    this.state = 'watching';
    this.lastActivityAt = this.options.clock.now();
    this.schedule(this.options.idleMs);
  }

  /** Stops without expiring (kiosk mode off, the page goes away). */
  stop(): void {
    this.clear();
    this.state = 'stopped';
  }

  /** A user event (throttled). During the countdown it dismisses it. */
  activity(): void {
    const now = this.options.clock.now();
    if (now - this.lastActivityAt < this.options.throttleMs) return;
    this.recordActivity(now);
  }

  /** Cancel in the dialog: watching resumes at once (never throttled). */
  resume(): void {
    this.recordActivity(this.options.clock.now());
  }

  /** Home in the dialog: the session ends now. */
  expireNow(): void {
    if (this.state === 'stopped' || this.state === 'expired') return;
    this.expire();
  }

  /**
   * Seam for the kiosk app's hardware idle time: it may only shorten the wait (the system can
   * report 0 forever), so it moves the last activity back, never forward.
   */
  reportSystemIdle(idleSeconds: number): void {
    if (this.state !== 'watching' || !(idleSeconds > 0)) return;
    const since = this.options.clock.now() - idleSeconds * 1000;
    if (since >= this.lastActivityAt) return;
    this.lastActivityAt = since;
    this.clear();
    this.guarded(() => this.check());
  }

  private recordActivity(now: number): void {
    if (this.state !== 'watching' && this.state !== 'counting') return;
    this.lastActivityAt = now;
    if (this.state === 'counting') {
      this.state = 'watching';
      this.clear();
      this.schedule(this.options.idleMs);
      this.options.onResume();
    }
    // While watching, the pending timer finds the newer activity and waits the rest.
  }

  private check(): void {
    const now = this.options.clock.now();
    if (this.state === 'watching') {
      const idle = now - this.lastActivityAt;
      if (idle < this.options.idleMs) {
        this.schedule(this.options.idleMs - idle);
        return;
      }
      this.state = 'counting';
      this.countdownEndsAt = this.lastActivityAt + this.options.idleMs + this.options.countdownSeconds * 1000;
    }
    if (this.state !== 'counting') return;
    const left = this.countdownEndsAt - now;
    if (left <= 0) {
      this.expire();
      return;
    }
    const seconds = Math.ceil(left / 1000);
    this.schedule(left - (seconds - 1) * 1000);
    this.options.onCountdown(seconds);
  }

  private expire(): void {
    this.clear();
    this.state = 'expired';
    this.options.onExpire();
  }

  private schedule(ms: number): void {
    this.clear();
    this.handle = this.options.clock.setTimeout(() => {
      this.handle = null;
      this.guarded(() => this.check());
    }, ms);
  }

  /** A failure inside the cycle ends the session (fail closed). */
  private guarded(step: () => void): void {
    try {
      step();
    } catch (error) {
      console.error('[kiosk-idle] the idle timer failed; ending the session', error);
      if (this.state !== 'expired') this.expire();
    }
  }

  private clear(): void {
    if (this.handle !== null) this.options.clock.clearTimeout(this.handle);
    this.handle = null;
  }
}
