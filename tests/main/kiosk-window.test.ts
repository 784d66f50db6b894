import { describe, expect, it } from 'vitest';
import { buildKioskWindowOptions, buildWebPreferences, createKioskWindow, KIOSK_BACKGROUND_COLOR } from '../../src-main/kiosk-window';
import { FakeElectron, MemoryLog } from './helpers/fake-electron';

const PRELOAD = '/opt/kiosk/resources/app.asar/out/preload/index.cjs';
const PORTAL = 'https://portal.example.com';

describe('buildWebPreferences', () => {
  it('is exactly the locked-down set in production, devtools off', () => {
    expect(buildWebPreferences('production', PRELOAD)).toStrictEqual({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
      devTools: false,
      spellcheck: false,
      preload: PRELOAD,
    });
  });

  it('differs in development only by devtools', () => {
    expect(buildWebPreferences('development', PRELOAD)).toStrictEqual({ ...buildWebPreferences('production', PRELOAD), devTools: true });
  });

  it('sets no option that would re-enable Node or Blink features', () => {
    const preferences: Record<string, unknown> = { ...buildWebPreferences('production', PRELOAD) };
    for (const risky of ['enableBlinkFeatures', 'nodeIntegrationInSubFrames', 'enableRemoteModule', 'safeDialogs', 'additionalArguments']) {
      expect(preferences).not.toHaveProperty(risky);
    }
  });
});

describe('buildKioskWindowOptions', () => {
  it('is a hidden-until-ready, frameless, full-screen kiosk window', () => {
    expect(buildKioskWindowOptions('production', PRELOAD)).toStrictEqual({
      fullscreen: true,
      kiosk: true,
      frame: false,
      autoHideMenuBar: true,
      backgroundColor: KIOSK_BACKGROUND_COLOR,
      show: false,
      webPreferences: buildWebPreferences('production', PRELOAD),
    });
  });
});

describe('createKioskWindow', () => {
  const create = (mode: 'production' | 'development' = 'production') => {
    const electron = new FakeElectron();
    const log = new MemoryLog();
    const window = createKioskWindow(electron, { mode, preloadPath: PRELOAD, allowedOrigin: PORTAL, log });
    const fake = electron.windows[0];
    if (!fake || fake !== window) throw new Error('createKioskWindow did not use the surface factory');
    return { electron, log, window: fake, contents: fake.webContents };
  };

  it('creates the window from the kiosk options', () => {
    const { window } = create('production');
    expect(window.options).toStrictEqual(buildKioskWindowOptions('production', PRELOAD));
  });

  it('attaches every policy to the window it creates', () => {
    const { contents } = create();
    expect(contents.listenerCount('will-navigate')).toBe(1);
    expect(contents.listenerCount('will-frame-navigate')).toBe(1);
    expect(contents.listenerCount('before-input-event')).toBe(1);
    expect(contents.listenerCount('preload-error')).toBe(1);
    expect(contents.windowOpenHandler).not.toBeNull();
    expect(contents.session.requestHandler).not.toBeNull();
    expect(contents.session.checkHandler).not.toBeNull();
    expect(contents.session.deviceHandler).not.toBeNull();
    expect(contents.zoomLimits).toEqual([1, 1]);
    // Behaviour, not only registration:
    expect(contents.emitNavigation('will-navigate', 'https://evil.com/')).toBe(true);
    expect(contents.emitKey({ key: 'F12' })).toBe(true);
    expect(contents.requestWindowOpen(`${PORTAL}/x`)).toEqual({ action: 'deny' });
  });

  it('stays hidden until ready-to-show', () => {
    const { window } = create();
    expect(window.shown).toBe(false);
    window.emit('ready-to-show');
    expect(window.shown).toBe(true);
  });

  it('logs a preload failure instead of crashing (the portal works without window.kiosk)', () => {
    const { contents, log } = create();
    contents.emitPreloadError(PRELOAD, new Error('boom'));
    expect(log.lines).toContainEqual(expect.objectContaining({ level: 'error', message: `[window] preload failed: ${PRELOAD}` }));
  });
});
