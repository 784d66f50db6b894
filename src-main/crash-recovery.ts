import type { KioskWebContents, RenderProcessGoneDetails } from './electron-surface';
import type { KioskLog } from './kiosk-log';
import { isAllowedNavigation } from './navigation-policy';

/** Chromium's net::ERR_ABORTED: a navigation replaced by another one (or cancelled by our own policy); not a failure. */
const ERR_ABORTED = -3;
/** How many failures inside {@link FAILURE_WINDOW_MS} switch the kiosk to the offline page. */
export const FAILURE_THRESHOLD = 3;
export const FAILURE_WINDOW_MS = 60_000;
/** Offline retries back off 5 s, 10 s, 20 s … up to 5 min, so a portal outage is not hammered by every kiosk. */
export const RETRY_BASE_MS = 5_000;
export const RETRY_MAX_MS = 5 * 60_000;

/** Every way a kiosk window can fail; all of them go through {@link crashPolicy} (docs/rules/kiosk.md#crash-recovery). */
export type WindowFailure =
  | { kind: 'render-process-gone'; reason: RenderProcessGoneDetails['reason'] }
  | { kind: 'unresponsive' }
  | { kind: 'did-fail-load'; errorCode: number; isMainFrame: boolean }
  | { kind: 'child-process-gone'; processType: string; reason: string };

export type CrashDecision =
  | { action: 'ignore'; why: string }
  /** A hung renderer cannot reload itself: kill it; the resulting render-process-gone reloads. */
  | { action: 'kill-renderer' }
  /** Load the START page (never reload in place: that could show the previous patient's screen). */
  | { action: 'reload-start' }
  | { action: 'show-offline'; retryInMs: number };

export interface CrashState {
  /** Times (ms) of the failures still inside the window. */
  readonly recentFailures: readonly number[];
  /** Offline retries since the portal last loaded; drives the backoff. 0 = not offline. */
  readonly offlineStreak: number;
}

export const INITIAL_CRASH_STATE: CrashState = { recentFailures: [], offlineStreak: 0 };

/**
 * Decides what the kiosk does about a window failure. Pure: the caller passes the time.
 *
 * - sub-frame load failures and ERR_ABORTED are ignored (the page is still there);
 * - a hang kills the renderer (its render-process-gone is then counted once);
 * - otherwise the failure is counted: below {@link FAILURE_THRESHOLD} in {@link FAILURE_WINDOW_MS}
 *   the start page is loaded again; at the threshold, or while already offline, the offline page
 *   is shown and the start page retried with exponential backoff.
 */
export function crashPolicy(state: CrashState, failure: WindowFailure, now: number): { state: CrashState; decision: CrashDecision } {
  if (failure.kind === 'did-fail-load' && !failure.isMainFrame) {
    return { state, decision: { action: 'ignore', why: 'subframe load failure' } };
  }
  if (failure.kind === 'did-fail-load' && failure.errorCode === ERR_ABORTED) {
    return { state, decision: { action: 'ignore', why: 'navigation aborted' } };
  }
  if (failure.kind === 'unresponsive') {
    return { state, decision: { action: 'kill-renderer' } };
  }
  const recentFailures = [...state.recentFailures.filter((time) => now - time < FAILURE_WINDOW_MS), now];
  if (state.offlineStreak === 0 && recentFailures.length < FAILURE_THRESHOLD) {
    return { state: { recentFailures, offlineStreak: 0 }, decision: { action: 'reload-start' } };
  }
  const offlineStreak = state.offlineStreak + 1;
  const retryInMs = Math.min(RETRY_BASE_MS * 2 ** (offlineStreak - 1), RETRY_MAX_MS);
  return { state: { recentFailures, offlineStreak }, decision: { action: 'show-offline', retryInMs } };
}

/** The portal loaded: leave offline mode, so the next failure reloads at once again. */
export function crashPolicyOnSuccess(state: CrashState): CrashState {
  return { recentFailures: state.recentFailures, offlineStreak: 0 };
}

/** Clock and timer, injected so tests drive time; `Handle` is whatever the timer returns (Node's Timeout in the app). */
export interface Timers<Handle> {
  now(): number;
  setTimeout(callback: () => void, ms: number): Handle;
  clearTimeout(handle: Handle): void;
}

export interface CrashRecoveryOptions<Handle> {
  contents: KioskWebContents;
  startUrl: string;
  allowedOrigin: string;
  /** Absolute path of resources/kiosk/offline.html. */
  offlinePagePath: string;
  timers: Timers<Handle>;
  log: KioskLog;
  /**
   * What "the start page" is right now: the portal's kiosk home unless a local enrollment screen
   * must stay (kiosk-credential.ts). Defaults to loading startUrl.
   */
  loadHome?: () => Promise<void>;
}

/** The last crash, for the heartbeat: when and why (no URL, no patient data). */
export interface LastCrash {
  at: number;
  reason: string;
}

export interface CrashRecovery {
  /** Feeds a failure observed elsewhere (the app's child-process-gone) into the same policy. */
  onFailure(failure: WindowFailure): void;
  /** Current state, for tests and diagnostics. */
  state(): CrashState;
  /** The last renderer, GPU or utility process crash or hang, or null. */
  lastCrash(): LastCrash | null;
  /** Epoch ms of the last time the offline page was shown, or null. */
  lastOfflineAt(): number | null;
}

/**
 * Wires a window's failure events to {@link crashPolicy} and carries out its decisions: loads the
 * start page, kills a hung renderer, or shows the offline page and schedules the retry.
 */
export function installCrashRecovery<Handle>(options: CrashRecoveryOptions<Handle>): CrashRecovery {
  const { contents, timers, log } = options;
  let state = INITIAL_CRASH_STATE;
  let retryTimer: Handle | null = null;
  let lastCrash: LastCrash | null = null;
  let lastOfflineAt: number | null = null;

  const cancelRetry = () => {
    if (retryTimer !== null) timers.clearTimeout(retryTimer);
    retryTimer = null;
  };
  // A failed load rejects loadURL as well as emitting did-fail-load; the event is what we act on,
  // and an unhandled rejection here would make global-errors relaunch the whole app.
  const loadHome = options.loadHome ?? (() => contents.loadURL(options.startUrl));
  const loadStart = () => loadHome().catch((error: unknown) => log.warn(`[crash-recovery] start page did not load: ${describe(error)}`));

  const onFailure = (failure: WindowFailure) => {
    if (contents.isDestroyed()) return;
    if (failure.kind !== 'did-fail-load') lastCrash = { at: timers.now(), reason: describeFailure(failure) };
    const result = crashPolicy(state, failure, timers.now());
    state = result.state;
    const decision = result.decision;
    switch (decision.action) {
      case 'ignore':
        return;
      case 'kill-renderer':
        log.warn('[crash-recovery] renderer unresponsive, restarting it');
        contents.forcefullyCrashRenderer();
        return;
      case 'reload-start':
        log.warn(`[crash-recovery] ${describeFailure(failure)}, loading the start page`);
        cancelRetry();
        void loadStart();
        return;
      case 'show-offline':
        log.warn(`[crash-recovery] ${describeFailure(failure)}, offline page; retry in ${decision.retryInMs / 1000}s`);
        cancelRetry();
        lastOfflineAt = timers.now();
        contents
          .loadFile(options.offlinePagePath)
          .catch((error: unknown) => log.error('[crash-recovery] offline page did not load', error));
        retryTimer = timers.setTimeout(() => {
          retryTimer = null;
          void loadStart();
        }, decision.retryInMs);
        return;
    }
  };

  contents.on('render-process-gone', (_event, details) => onFailure({ kind: 'render-process-gone', reason: details.reason }));
  contents.on('unresponsive', () => onFailure({ kind: 'unresponsive' }));
  contents.on('did-fail-load', (_event, errorCode, _description, _url, isMainFrame) =>
    onFailure({ kind: 'did-fail-load', errorCode, isMainFrame }),
  );
  contents.on('did-finish-load', () => {
    // The offline page also finishes loading; only the portal itself counts as recovery.
    if (isAllowedNavigation(contents.getURL(), options.allowedOrigin)) state = crashPolicyOnSuccess(state);
  });

  return { onFailure, state: () => state, lastCrash: () => lastCrash, lastOfflineAt: () => lastOfflineAt };
}

function describeFailure(failure: WindowFailure): string {
  switch (failure.kind) {
    case 'render-process-gone':
      return `renderer gone: ${failure.reason}`;
    case 'unresponsive':
      return 'renderer unresponsive';
    case 'did-fail-load':
      return `load failed: ${failure.errorCode}`;
    case 'child-process-gone':
      return `${failure.processType} process gone: ${failure.reason}`;
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
