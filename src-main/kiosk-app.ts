import { installCrashRecovery, type CrashRecovery, type Timers } from './crash-recovery';
import type { ElectronSurface, KioskBrowserWindow } from './electron-surface';
import { registerKioskIpc } from './ipc';
import { formatConfigProblems, type KioskConfig, type KioskConfigResult } from './kiosk-config';
import type { KioskLog } from './kiosk-log';
import { createKioskWindow, type KioskMode } from './kiosk-window';
import { originForLog } from './navigation-policy';

export interface KioskRuntime<Handle> {
  mode: KioskMode;
  /** Absolute path of out/preload/index.cjs. */
  preloadPath: string;
  /** Absolute path of resources/kiosk/offline.html. */
  offlinePagePath: string;
  platform: string;
  timers: Timers<Handle>;
  log: KioskLog;
}

export interface RunningKiosk {
  window: KioskBrowserWindow;
  recovery: CrashRecovery;
}

/**
 * Starts the kiosk once Electron is ready: no application menu, the bridge handlers, the
 * hardened window with crash recovery, and the start page. Everything is wired here and nowhere
 * else, so the test can check that every policy is attached to the window.
 */
export function startKiosk<Handle>(surface: ElectronSurface, config: KioskConfig, runtime: KioskRuntime<Handle>): RunningKiosk {
  const { log } = runtime;
  surface.removeApplicationMenu();
  registerKioskIpc(surface, {
    allowedOrigin: config.allowedOrigin,
    appInfo: () => ({ version: surface.app.getVersion(), platform: runtime.platform }),
    log,
  });

  const window = createKioskWindow(surface, {
    mode: runtime.mode,
    preloadPath: runtime.preloadPath,
    allowedOrigin: config.allowedOrigin,
    log,
  });
  const recovery = installCrashRecovery({
    contents: window.webContents,
    startUrl: config.startUrl,
    allowedOrigin: config.allowedOrigin,
    offlinePagePath: runtime.offlinePagePath,
    timers: runtime.timers,
    log,
  });

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

  log.info(
    `[startup] ${runtime.mode} start: portal ${originForLog(config.startUrl)} (from ${config.portalUrlSource})` +
      (config.clinicSlug ? `, clinic ${config.clinicSlug}` : ''),
  );
  // A failure here also emits did-fail-load, which crash recovery handles; the rejection is only logged.
  window.webContents.loadURL(config.startUrl).catch((error: unknown) => log.warn(`[startup] first load failed: ${String(error)}`));
  return { window, recovery };
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
  return app.whenReady().then(() => {
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
