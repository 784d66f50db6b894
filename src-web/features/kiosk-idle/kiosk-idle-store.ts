import { makeAutoObservable } from 'mobx';
import { bridgeReportActivity, subscribeSystemIdle } from '../../platform/kiosk-bridge-client';
import type { FeatureStoreContext } from '../../stores/root-store';
import { watchActivity } from './activity-watch';
import { endKioskSession } from './end-kiosk-session';
import { IdleTimer, type IdleClock } from './idle-timer';
import { ACTIVITY_REPORT_MS, ACTIVITY_THROTTLE_MS, INACTIVITY_COUNTDOWN_SECONDS } from './kiosk-idle-constants';

/**
 * Hardware idle time from the kiosk app: calls `onIdle` with idle seconds, and `onBreak` when the
 * screen locks or the machine suspends (the patient's visit is over); returns the unsubscribe.
 */
export type SystemIdleSource = (onIdle: (idleSeconds: number) => void, onBreak: () => void) => () => void;

export interface KioskIdleDeps {
  clock: IdleClock;
  /** kioskNoActivitySeconds from the app config. */
  idleSeconds(): number;
  /** Starts listening for activity; returns the function that stops it. */
  watchActivity(onActivity: () => void): () => void;
  /** Ends the patient's session and leaves for the kiosk home (end-kiosk-session.ts). */
  endSession(): Promise<void>;
  /** The kiosk app's hardware idle time, when its bridge offers it; it may only shorten the wait. */
  systemIdle?: SystemIdleSource;
}

/**
 * The kiosk idle cycle as the page sees it (docs/rules/kiosk.md#inactivity):
 * watching while kiosk mode is on, the inactivity dialog's countdown, and the end of the
 * patient's session. Fails closed: if the timer cannot start or fails, the session ends.
 */
export class KioskIdleStore {
  /** The inactivity dialog is open. */
  countingDown = false;
  /** Whole seconds left in the countdown. */
  remainingSeconds = 0;
  /** The session is ending (Home, the countdown's end, or a failure); the page is about to be left. */
  ending = false;

  private timer: IdleTimer | null = null;
  private stopWatching: (() => void) | null = null;
  private readonly deps: KioskIdleDeps;

  constructor(deps: KioskIdleDeps) {
    this.deps = deps;
    makeAutoObservable<this, 'timer' | 'stopWatching' | 'deps'>(this, { timer: false, stopWatching: false, deps: false, watching: false });
  }

  /** Idle watching runs (started and not ended); not observable, for tests and logs. */
  get watching(): boolean {
    return this.timer !== null && !this.ending;
  }

  /** Starts idle watching; anything that fails here ends the session at once. */
  start(): void {
    if (this.timer !== null || this.ending) return;
    try {
      const timer = new IdleTimer({
        idleMs: this.deps.idleSeconds() * 1000,
        countdownSeconds: INACTIVITY_COUNTDOWN_SECONDS,
        throttleMs: ACTIVITY_THROTTLE_MS,
        clock: this.deps.clock,
        onCountdown: (seconds) => this.showCountdown(seconds),
        onResume: () => this.hideCountdown(),
        onExpire: () => this.end(),
      });
      this.timer = timer;
      const stopActivity = this.deps.watchActivity(() => timer.activity());
      const stopSystemIdle = this.deps.systemIdle?.(
        (seconds) => timer.reportSystemIdle(seconds),
        () => this.end(),
      );
      this.stopWatching = () => {
        stopActivity();
        stopSystemIdle?.();
      };
      timer.start();
    } catch (error) {
      console.error('[kiosk-idle] idle watching could not start; ending the session', error);
      this.end();
    }
  }

  /** Stops idle watching (kiosk mode off, the page unmounts). */
  stop(): void {
    this.timer?.stop();
    this.timer = null;
    this.stopWatching?.();
    this.stopWatching = null;
    this.countingDown = false;
  }

  /** Cancel: the patient is still here; idle watching resumes. */
  cancel(): void {
    if (this.ending) return;
    this.timer?.resume();
  }

  /** Home: the session ends now. */
  goHome(): void {
    this.end();
  }

  private showCountdown(seconds: number): void {
    this.countingDown = true;
    this.remainingSeconds = seconds;
  }

  private hideCountdown(): void {
    this.countingDown = false;
  }

  private end(): void {
    if (this.ending) return;
    this.ending = true;
    const timer = this.timer;
    this.timer = null;
    timer?.stop();
    this.stopWatching?.();
    this.stopWatching = null;
    this.deps.endSession().catch((error: unknown) => console.error('[kiosk-idle] ending the session failed', error));
  }
}

/** The store on the real page: its window's timers and events, the app config, the logout call. */
export function kioskIdleStore({ root, window: win }: FeatureStoreContext): KioskIdleStore {
  return new KioskIdleStore({
    clock: {
      now: () => Date.now(),
      setTimeout: (callback, ms) => win.setTimeout(callback, ms),
      clearTimeout: (handle) => win.clearTimeout(handle as number),
    },
    idleSeconds: () => root.config.app.kioskNoActivitySeconds,
    watchActivity: (onActivity) => {
      // The kiosk app keeps the time of the last patient activity for its heartbeat (a time only).
      let reportedAt = -Infinity;
      return watchActivity(win, () => {
        onActivity();
        if (Date.now() - reportedAt < ACTIVITY_REPORT_MS) return;
        reportedAt = Date.now();
        bridgeReportActivity(win);
      });
    },
    endSession: () => endKioskSession({ win, logout: () => root.api.patientAccess.logout() }),
    // In the kiosk app: hardware idle may shorten the wait; a locked screen or a suspend ends the visit.
    systemIdle: (onIdle, onBreak) =>
      subscribeSystemIdle(win, (change) => {
        if (change.reason === 'lock-screen' || change.reason === 'suspend') onBreak();
        else onIdle(change.idleSeconds);
      }) ?? (() => undefined),
  });
}
