import { installCrashRecovery, type CrashRecovery, type Timers } from './crash-recovery';
import type { ElectronSurface, KioskBrowserWindow } from './electron-surface';
import type { KioskFetch } from './enrollment';
import { registerKioskIpc } from './ipc';
import { installKioskAuth } from './kiosk-auth';
import { installIdleMonitor, type IdleMonitor } from './idle-monitor';
import { installHeartbeat, type Heartbeat } from './heartbeat';
import { installKioskUpdates, type KioskUpdater, type PatientPresence } from './updater';
import { endPatientSession } from './session-wipe';
import { createKioskCredential, type KioskCredential } from './kiosk-credential';
import { formatConfigProblems, type KioskConfig, type KioskConfigResult } from './kiosk-config';
import type { KioskLog } from './kiosk-log';
import { createKioskWindow, type KioskMode } from './kiosk-window';
import { originForLog } from './navigation-policy';
import { createTokenStore } from './kiosk-token-store';

export interface KioskRuntime<Handle> {
  mode: KioskMode;
  /** Absolute path of out/preload/index.cjs. */
  preloadPath: string;
  /** Absolute path of resources/kiosk/offline.html. */
  offlinePagePath: string;
  /** Absolute path of resources/kiosk/enrollment.html (not enrolled, code refused, insecure storage). */
  enrollmentPagePath: string;
  /** Main's own HTTP client (enrollment, heartbeat): Node's fetch in the app. */
  fetch: KioskFetch;
  platform: string;
  /** electron-updater's autoUpdater, loaded only when updateUrl is provisioned; absent in development. */
  loadUpdater?: () => Promise<KioskUpdater>;
  /** Epoch ms when the process started (the heartbeat's uptime). */
  startedAt: number;
  timers: Timers<Handle>;
  log: KioskLog;
}

export interface RunningKiosk {
  window: KioskBrowserWindow;
  recovery: CrashRecovery;
  credential: KioskCredential;
  idle: IdleMonitor;
  heartbeat: Heartbeat;
}

/** The app's own events: a dead helper process is a crash, a second start shows this window, the last window closing quits. */
function watchAppEvents(surface: ElectronSurface, window: RunningKiosk['window'], recovery: RunningKiosk['recovery']): void {
  surface.app.on('child-process-gone', (_event, details) => {
    // A GPU or utility process that dies can leave the page blank or frozen; treat it like a renderer crash.
    if (details.reason === 'clean-exit') return;
    recovery.onFailure({ kind: 'child-process-gone', processType: details.type, reason: details.reason });
  });
  surface.app.on('second-instance', () => {
    // Someone double-clicked the kiosk again: bring the one window forward instead of opening a second.
    if (window.isDestroyed()) return;
    window.show();
    window.focus();
  });
  // The window only closes when the OS asks; quit and let the supervisor decide (README).
  surface.app.on('window-all-closed', () => surface.app.quit());
}

/** The bridge the portal page calls (src-preload/kiosk-api.ts), with what it may learn of this kiosk. */
function registerBridge<Handle>(
  surface: ElectronSurface,
  config: KioskConfig,
  runtime: KioskRuntime<Handle>,
  parts: { contents: RunningKiosk['window']['webContents']; credential: RunningKiosk['credential']; idle: RunningKiosk['idle'] },
): void {
  const { contents, credential, idle } = parts;
  const { log } = runtime;
  registerKioskIpc(surface, {
    allowedOrigin: config.allowedOrigin,
    appInfo: () => ({ version: surface.app.getVersion(), platform: runtime.platform }),
    identity: () => {
      const known = credential.identity();
      return {
        name: known?.name ?? null,
        clinicSlug: known?.clinicSlug ?? config.clinicSlug,
        clinicName: known?.clinicName ?? null,
        enrolled: credential.token() !== null,
      };
    },
    systemIdleSeconds: () => idle.systemIdleSeconds(),
    endPatientSession: () => endPatientSession(contents, config.startUrl, log),
    reportPatientActivity: () => idle.reportPatientActivity(),
    log,
  });
}

/** When provisioned with an update feed: updates, installed only while no patient is at the kiosk. */
function startUpdates<Handle>(config: KioskConfig, runtime: KioskRuntime<Handle>, presence: ReturnType<typeof patientPresence>): void {
  const { log } = runtime;
  if (config.updateUrl && runtime.loadUpdater) {
    const updateUrl = config.updateUrl;
    runtime
      .loadUpdater()
      .then((updater) =>
        installKioskUpdates({ updater, updateUrl, updateChannel: config.updateChannel, presence, timers: runtime.timers, log }),
      )
      .catch((error: unknown) => log.warn(`[updater] not available: ${String(error)}`));
  }
}

/**
 * Starts the kiosk once Electron is ready: no application menu, the hardened window with crash
 * recovery, the credential (enrollment, the token header, revocation), the idle monitor, the
 * bridge handlers, then the start page or a local screen; after that the heartbeat and, when
 * provisioned, updates. Everything is wired here and nowhere else, so the tests can check that
 * every policy is attached to the window.
 */
export async function startKiosk<Handle>(
  surface: ElectronSurface,
  config: KioskConfig,
  runtime: KioskRuntime<Handle>,
): Promise<RunningKiosk> {
  const { log } = runtime;
  surface.removeApplicationMenu();

  const window = createKioskWindow(surface, {
    mode: runtime.mode,
    preloadPath: runtime.preloadPath,
    allowedOrigin: config.allowedOrigin,
    log,
  });
  const contents = window.webContents;
  const recovery = installCrashRecovery({
    contents,
    startUrl: config.startUrl,
    allowedOrigin: config.allowedOrigin,
    offlinePagePath: runtime.offlinePagePath,
    timers: runtime.timers,
    log,
    // A crash on an enrollment screen must bring that screen back, not the portal.
    loadHome: () => credential.loadHome(),
  });

  watchAppEvents(surface, window, recovery);

  const credential = createKioskCredential({
    enrollment: {
      fetch: runtime.fetch,
      portalUrl: config.portalUrl,
      enrollmentCode: config.enrollmentCode,
      provisioningPath: config.provisioningPath,
      store: createTokenStore({ safeStorage: surface.safeStorage, platform: runtime.platform, directory: surface.app.getPath('userData') }),
      safeStorage: surface.safeStorage,
      platform: runtime.platform,
      log,
    },
    contents,
    startUrl: config.startUrl,
    enrollmentPagePath: runtime.enrollmentPagePath,
    offlinePagePath: runtime.offlinePagePath,
    timers: runtime.timers,
    log,
  });
  const idle = installIdleMonitor({
    powerMonitor: surface.powerMonitor,
    contents,
    allowedOrigin: config.allowedOrigin,
    timers: runtime.timers,
  });

  registerBridge(surface, config, runtime, { contents, credential, idle });

  log.info(
    `[startup] ${runtime.mode} start: portal ${originForLog(config.startUrl)} (from ${config.portalUrlSource})` +
      (config.clinicSlug ? `, clinic ${config.clinicSlug}` : ''),
  );
  // Before the first load, so even the first kiosk request carries the token.
  installKioskAuth({ session: contents.session, portalUrl: config.portalUrl, credential, fetch: runtime.fetch, log });
  // Loads the start page (a failure there also emits did-fail-load, which crash recovery handles) or a local screen.
  await credential.start();
  const heartbeat = installHeartbeat({
    fetch: runtime.fetch,
    portalUrl: config.portalUrl,
    credential,
    sources: {
      appVersion: surface.app.getVersion(),
      startedAt: runtime.startedAt,
      lastCrash: () => recovery.lastCrash(),
      lastPatientActivityAt: () => idle.lastPatientActivityAt(),
      lastOfflineAt: () => recovery.lastOfflineAt(),
    },
    timers: runtime.timers,
    log,
  });
  startUpdates(config, runtime, patientPresence(contents, config.startUrl, idle));
  return { window, recovery, credential, idle, heartbeat };
}

/**
 * The kiosk process's life: one instance per machine (a second start focuses the first and
 * exits), then, when Electron is ready, either the kiosk or a clear message about the
 * provisioning problem.
 *
 * @returns a promise that settles when start-up is done (tests await it; main.ts must not, see main.ts).
 */
export function runKiosk<Handle>(
  surface: ElectronSurface,
  configResult: KioskConfigResult,
  runtime: KioskRuntime<Handle>,
): Promise<RunningKiosk | null> {
  const { app } = surface;
  if (!app.requestSingleInstanceLock()) {
    runtime.log.warn('[startup] another kiosk instance is already running; this one quits');
    app.quit();
    return Promise.resolve(null);
  }
  return app.whenReady().then(async () => {
    if (!configResult.ok) {
      const message = formatConfigProblems(configResult.problems);
      runtime.log.error(message);
      surface.showErrorBox('Kiosk configuration problem', message);
      app.exit(1);
      return null;
    }
    return startKiosk(surface, configResult.config, runtime);
  });
}

/** The page is the kiosk home (any query) or not the portal at all (a local screen): no patient's data is open. */
export function isHomeOrLocalScreen(currentUrl: string, startUrl: string): boolean {
  const home = new URL(startUrl);
  let current: URL;
  try {
    current = new URL(currentUrl);
  } catch {
    return false;
  }
  if (current.protocol === 'file:') return true;
  return current.origin === home.origin && current.pathname.replace(/\/+$/, '') === home.pathname;
}

function patientPresence(contents: KioskBrowserWindow['webContents'], startUrl: string, idle: IdleMonitor): PatientPresence {
  return {
    onHomeOrLocalScreen: () => !contents.isDestroyed() && isHomeOrLocalScreen(contents.getURL(), startUrl),
    systemIdleSeconds: () => idle.systemIdleSeconds(),
    lastPatientActivityAt: () => idle.lastPatientActivityAt(),
  };
}
