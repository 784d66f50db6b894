import type { BrowserWindowConstructorOptions, ElectronSurface, KioskBrowserWindow } from './electron-surface';
import { installInputPolicy } from './input-policy';
import type { KioskLog } from './kiosk-log';
import { installNavigationPolicy } from './navigation-policy';
import { installPermissionHandlers } from './permissions';

export type KioskMode = 'production' | 'development';

/** The renderer's webPreferences, written out in full so a review (and the test) sees every setting. */
export interface KioskWebPreferences {
  contextIsolation: true;
  sandbox: true;
  nodeIntegration: false;
  nodeIntegrationInWorker: false;
  webSecurity: true;
  allowRunningInsecureContent: false;
  webviewTag: false;
  experimentalFeatures: false;
  devTools: boolean;
  spellcheck: false;
  preload: string;
}

/**
 * The locked-down webPreferences of every kiosk window (Electron security checklist #2–#10,
 * docs/rules/kiosk.md#window). The values are literal types, so weakening one is a compile error as well as a
 * test failure.
 *
 * @param mode - 'production' for packaged builds; devtools exist only in 'development'.
 * @param preloadPath - absolute path of the bundled CJS preload (out/preload/index.cjs).
 */
export function buildWebPreferences(mode: KioskMode, preloadPath: string): KioskWebPreferences {
  return {
    contextIsolation: true, // the page and the preload get separate JS worlds; only contextBridge crosses
    sandbox: true, // the renderer runs without Node, as Chromium's sandbox intends
    nodeIntegration: false, // remote portal code must never reach require()
    nodeIntegrationInWorker: false, // nor through a web worker
    webSecurity: true, // same-origin policy stays on
    allowRunningInsecureContent: false, // no http scripts inside the https portal
    webviewTag: false, // a <webview> would be a second, unpoliced browser
    experimentalFeatures: false, // no unshipped Blink features
    devTools: mode === 'development', // a patient must not be able to open devtools on a kiosk
    spellcheck: false, // the kiosk keyboard is for names and dates; squiggles only confuse
    preload: preloadPath,
  };
}

/** Dark slate behind the page while it loads, so a reload does not flash white at a waiting patient. */
export const KIOSK_BACKGROUND_COLOR = '#1f2933';

/** The kiosk window: full screen, kiosk mode (no way out to the desktop), no frame or menu bar. */
export function buildKioskWindowOptions(mode: KioskMode, preloadPath: string): BrowserWindowConstructorOptions {
  return {
    fullscreen: true,
    kiosk: true,
    frame: false,
    autoHideMenuBar: true,
    backgroundColor: KIOSK_BACKGROUND_COLOR,
    show: false, // shown on ready-to-show, so the patient never sees an empty window
    webPreferences: buildWebPreferences(mode, preloadPath),
  };
}

export interface CreateKioskWindowOptions {
  mode: KioskMode;
  preloadPath: string;
  allowedOrigin: string;
  log: KioskLog;
}

/**
 * Creates the kiosk window with every hardening applied to its webContents: navigation and
 * window-open lock, key filter, permission handlers, pinch-zoom off and a `preload-error` log line
 * (one function applied to every window, so none is missed).
 */
export function createKioskWindow(surface: Pick<ElectronSurface, 'createWindow'>, options: CreateKioskWindowOptions): KioskBrowserWindow {
  const window = surface.createWindow(buildKioskWindowOptions(options.mode, options.preloadPath));
  const contents = window.webContents;
  installNavigationPolicy(contents, options.allowedOrigin, options.log);
  installInputPolicy(contents);
  installPermissionHandlers(contents.session, options.allowedOrigin, options.log);
  contents.setVisualZoomLevelLimits(1, 1).catch((error: unknown) => options.log.error('[window] cannot disable pinch-zoom', error));
  contents.on('preload-error', (_event, preloadPath, error) => {
    // Without the preload the portal still works (it falls back to browser kiosk mode), so log, don't crash.
    options.log.error(`[window] preload failed: ${preloadPath}`, error);
  });
  window.once('ready-to-show', () => {
    if (!window.isDestroyed()) window.show();
  });
  return window;
}
