// Composition root: the only file that imports the real Electron. Everything it wires is a plain
// function over ElectronSurface, tested in tests/main with a fake.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, dialog, ipcMain, Menu, powerMonitor, safeStorage } from 'electron';
import type { ElectronSurface, KioskBrowserWindow } from './electron-surface';
import { fetchWithTimeout } from './enrollment';
import { installGlobalErrorHandlers, FLUSH_TIMEOUT_MS } from './global-errors';
import { runKiosk } from './kiosk-app';
import { loadKioskConfig } from './kiosk-config';
import { consoleLog } from './kiosk-log';

const startedAt = Date.now();
const log = consoleLog();

// Typed as the surface: the compiler checks here that the real Electron objects fit it.
const surface: ElectronSurface = {
  app,
  // kiosk-window.ts builds the hardened options; the critical ones are restated where the window
  // is made, so no caller can weaken them and the audit (electronegativity) sees them here.
  createWindow: (options): KioskBrowserWindow =>
    new BrowserWindow({
      ...options,
      webPreferences: {
        ...options.webPreferences,
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
        nodeIntegrationInWorker: false,
        webSecurity: true,
        allowRunningInsecureContent: false,
        webviewTag: false,
      },
    }),
  ipcMain,
  removeApplicationMenu: () => Menu.setApplicationMenu(null),
  showErrorBox: (title, content) => dialog.showErrorBox(title, content),
  safeStorage,
  powerMonitor,
};

const configResult = loadKioskConfig({
  env: process.env,
  platform: process.platform,
  userDataDir: app.getPath('userData'),
  readTextFile: (filePath) => {
    try {
      return readFileSync(filePath, 'utf8');
    } catch (error) {
      if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return null;
      throw error;
    }
  },
});

// Error reporting only when a DSN is provisioned. The import is awaited at top level on purpose:
// Electron emits `ready` only after the ESM entry settles, and Sentry must register its IPC
// protocol before `ready` (https://www.electronjs.org/docs/latest/tutorial/esm#caveats).
let flushReports: (() => Promise<boolean>) | undefined;
if (configResult.ok && configResult.config.sentryDsn) {
  const Sentry = await import('@sentry/electron/main');
  Sentry.init({
    dsn: configResult.config.sentryDsn,
    release: app.getVersion(),
    // Protocol mode needs no injected preload: our preload stays the only script in the page.
    ipcMode: Sentry.IPCMode.Protocol,
    sendDefaultPii: false,
  });
  flushReports = () => Sentry.flush(FLUSH_TIMEOUT_MS);
}

// Before ready: Chromium reads --lang at start (navigator.language and Accept-Language for the portal).
if (configResult.ok && configResult.config.language) app.commandLine.appendSwitch('lang', configResult.config.language);

installGlobalErrorHandlers({ process, app, log, flush: flushReports });

const outMainDir = path.dirname(fileURLToPath(import.meta.url));

// Not awaited: awaiting whenReady at top level would hang, as `ready` waits for this module to settle.
void runKiosk(surface, configResult, {
  mode: app.isPackaged ? 'production' : 'development',
  preloadPath: path.join(outMainDir, '..', 'preload', 'index.cjs'),
  offlinePagePath: path.join(app.getAppPath(), 'resources', 'kiosk', 'offline.html'),
  enrollmentPagePath: path.join(app.getAppPath(), 'resources', 'kiosk', 'enrollment.html'),
  // Node's fetch, not the session's: the enrollment cookie must not land in the page's cookie jar.
  fetch: fetchWithTimeout(fetch),
  platform: process.platform,
  startedAt,
  // Loaded on demand: electron-updater reads the packaged app's update config as it loads.
  loadUpdater: app.isPackaged
    ? async () => {
        const { default: electronUpdater } = await import('electron-updater');
        return electronUpdater.autoUpdater;
      }
    : undefined,
  timers: {
    now: () => Date.now(),
    // Unref'd: Electron's life ends with app.quit(), and a pending retry or heartbeat must never hold a quitting process.
    setTimeout: (callback, ms) => setTimeout(callback, ms).unref(),
    clearTimeout: (handle) => clearTimeout(handle),
  },
  log,
});
