import { KIOSK_EVENTS, type IdleChange } from '@contract/kiosk-bridge';
import type { Timers } from './crash-recovery';
import type { KioskPowerMonitor, KioskWebContents } from './electron-surface';
import { isAllowedNavigation } from './navigation-policy';

/** How often the hardware idle time is pushed to the page. */
export const IDLE_PUSH_MS = 5_000;
/** Activity reports closer than this count once (the page may report on every touch). */
export const ACTIVITY_THROTTLE_MS = 10_000;

export interface IdleMonitor {
  /** The idle time as last read, in whole seconds. */
  systemIdleSeconds(): number;
  /** Records a patient's activity (time only); throttled. */
  reportPatientActivity(): void;
  /** Epoch ms of the last recorded patient activity, or null. */
  lastPatientActivityAt(): number | null;
  stop(): void;
}

export interface IdleMonitorOptions<Handle> {
  powerMonitor: KioskPowerMonitor;
  contents: KioskWebContents;
  allowedOrigin: string;
  timers: Timers<Handle>;
}

/**
 * Pushes `{idleSeconds, reason}` to the page every {@link IDLE_PUSH_MS} and at once on lock,
 * unlock, suspend and resume. A push goes only to a page on the portal origin (the offline or
 * enrollment page gets nothing), the push-side counterpart of ipc.ts's sender check.
 */
export function installIdleMonitor<Handle>(options: IdleMonitorOptions<Handle>): IdleMonitor {
  const { powerMonitor, contents, timers } = options;
  let lastActivity: number | null = null;
  let timer: Handle | null = null;
  let stopped = false;

  const read = () => Math.max(0, Math.floor(powerMonitor.getSystemIdleTime()));
  const push = (reason: IdleChange['reason']) => {
    if (contents.isDestroyed() || !isAllowedNavigation(contents.getURL(), options.allowedOrigin)) return;
    const change: IdleChange = { idleSeconds: read(), reason };
    contents.send(KIOSK_EVENTS.idleChange, change);
  };
  const tick = () => {
    timer = null;
    if (stopped) return;
    push('tick');
    timer = timers.setTimeout(tick, IDLE_PUSH_MS);
  };

  powerMonitor.on('lock-screen', () => push('lock-screen'));
  powerMonitor.on('unlock-screen', () => push('unlock-screen'));
  powerMonitor.on('suspend', () => push('suspend'));
  powerMonitor.on('resume', () => push('resume'));
  timer = timers.setTimeout(tick, IDLE_PUSH_MS);

  return {
    systemIdleSeconds: read,
    reportPatientActivity() {
      const now = timers.now();
      if (lastActivity !== null && now - lastActivity < ACTIVITY_THROTTLE_MS) return;
      lastActivity = now;
    },
    lastPatientActivityAt: () => lastActivity,
    stop() {
      stopped = true;
      if (timer !== null) timers.clearTimeout(timer);
      timer = null;
    },
  };
}
