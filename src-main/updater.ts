import type { Timers } from './crash-recovery';
import type { KioskLog } from './kiosk-log';

/** First check a minute after start (the portal first), then every 30 min. */
export const FIRST_CHECK_MS = 60_000;
export const CHECK_INTERVAL_MS = 30 * 60_000;
/** A downloaded update waits for a moment without a patient; looked at this often. */
export const INSTALL_POLL_MS = 30_000;
/** No input for this long, by both the hardware and the page, means nobody is using the kiosk. */
export const UPDATE_IDLE_SECONDS = 300;

/** The part of electron-updater's autoUpdater the kiosk uses (main.ts passes the real one). */
export interface KioskUpdater {
  setFeedURL(options: { provider: 'generic'; url: string; channel?: string | null }): void;
  /** Download an update as soon as a check finds it (set true). */
  autoDownload: boolean;
  /** Install a downloaded update when the app quits (set true). */
  autoInstallOnAppQuit: boolean;
  /** Accept an older version from the feed (set false). */
  allowDowngrade: boolean;
  checkForUpdates(): Promise<unknown>;
  quitAndInstall(isSilent?: boolean, isForceRunAfter?: boolean): void;
  on(event: 'update-downloaded', listener: (info: { version: string }) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/** What tells main whether a patient may be in the middle of something. */
export interface PatientPresence {
  /** The page is the kiosk home, or a local screen (offline, enrollment): nothing of a patient's is open. */
  onHomeOrLocalScreen(): boolean;
  systemIdleSeconds(): number;
  lastPatientActivityAt(): number | null;
}

/**
 * True only when no patient can be in a session: on the kiosk home or a local screen, or with
 * no input for {@link UPDATE_IDLE_SECONDS} by both measures. The hardware idle time alone is not
 * trusted (some systems report 0 forever: then only the home page lets an update through).
 */
export function noPatientInSession(presence: PatientPresence, now: number): boolean {
  if (presence.onHomeOrLocalScreen()) return true;
  const lastActivity = presence.lastPatientActivityAt();
  const pageIdleSeconds = lastActivity === null ? Infinity : (now - lastActivity) / 1_000;
  return Math.min(presence.systemIdleSeconds(), pageIdleSeconds) >= UPDATE_IDLE_SECONDS;
}

/** electron-builder writes latest.yml for the default channel; "stable" is our name for it. */
export function updaterChannel(channel: string): string {
  return channel === 'stable' ? 'latest' : channel;
}

export interface KioskUpdatesOptions<Handle> {
  updater: KioskUpdater;
  updateUrl: string;
  updateChannel: string;
  presence: PatientPresence;
  timers: Timers<Handle>;
  log: KioskLog;
}

export interface KioskUpdates {
  /** One scheduled step (check, or install a downloaded update); exposed for tests. */
  tick(): Promise<void>;
  stop(): void;
}

/**
 * Keeps the kiosk up to date from the provisioned generic feed: checks (and downloads) only
 * while no patient is in a session, and installs a downloaded update only then too, silently,
 * restarting the app. Errors are logged, never thrown.
 */
export function installKioskUpdates<Handle>(options: KioskUpdatesOptions<Handle>): KioskUpdates {
  const { updater, timers, log } = options;
  // A check (made only while no patient is in a session) downloads what it finds in the
  // background, so the install below waits for nothing but the next quiet moment.
  updater.autoDownload = true;
  // A kiosk never goes back to an older version because a feed was rolled back by mistake.
  updater.allowDowngrade = false;
  // A quit (a relaunch after a main-process error, a shutdown) ends any patient's session anyway:
  // a downloaded update may go in then rather than wait for the next quiet moment.
  updater.autoInstallOnAppQuit = true;
  updater.setFeedURL({ provider: 'generic', url: options.updateUrl, channel: updaterChannel(options.updateChannel) });

  let downloaded: string | null = null;
  let lastCheck: number | null = null;
  let timer: Handle | null = null;
  let stopped = false;

  updater.on('update-downloaded', (info) => {
    downloaded = info.version;
    log.info(`[updater] version ${info.version} downloaded; installs when no patient is using the kiosk`);
  });
  updater.on('error', (error) => log.warn(`[updater] ${error.message}`));

  const tick = async () => {
    const now = timers.now();
    if (!noPatientInSession(options.presence, now)) return;
    if (downloaded !== null) {
      log.info(`[updater] installing ${downloaded} and restarting`);
      updater.quitAndInstall(true, true);
      return;
    }
    if (lastCheck !== null && now - lastCheck < CHECK_INTERVAL_MS) return;
    lastCheck = now;
    try {
      await updater.checkForUpdates();
    } catch (error) {
      log.warn(`[updater] check failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  };

  const schedule = (ms: number) => {
    timer = timers.setTimeout(() => {
      timer = null;
      if (stopped) return;
      void tick().finally(() => {
        if (!stopped) schedule(INSTALL_POLL_MS);
      });
    }, ms);
  };
  schedule(FIRST_CHECK_MS);

  return {
    tick,
    stop() {
      stopped = true;
      if (timer !== null) timers.clearTimeout(timer);
      timer = null;
    },
  };
}
