import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { KIOSK_CHANNELS } from '@contract/kiosk-bridge';
import { runKiosk, type KioskRuntime } from '../../src-main/kiosk-app';
import { loadKioskConfig, type KioskConfigResult } from '../../src-main/kiosk-config';
import { buildKioskWindowOptions } from '../../src-main/kiosk-window';
import { FakeElectron, FakeTimers, FakeUpdater, MemoryLog } from './helpers/fake-electron';

const PRELOAD = '/opt/kiosk/out/preload/index.cjs';
const OFFLINE = '/opt/kiosk/resources/kiosk/offline.html';
const ENROLLMENT = '/opt/kiosk/resources/kiosk/enrollment.html';
/** No portal in these tests: main's own requests fail as if the network were down. */
const offlineFetch = () => Promise.reject(new Error('no network in this test'));

/** A production kiosk's runtime on Linux with fake timers and no network; `overrides` for what a test varies. */
function linuxRuntime(overrides: Partial<KioskRuntime<number>> = {}): KioskRuntime<number> {
  return {
    mode: 'production',
    preloadPath: PRELOAD,
    offlinePagePath: OFFLINE,
    enrollmentPagePath: ENROLLMENT,
    fetch: offlineFetch,
    platform: 'linux',
    startedAt: 0,
    timers: new FakeTimers(),
    log: new MemoryLog(),
    ...overrides,
  };
}

function setUp(configResult: KioskConfigResult = configFor('https://portal.example.com')) {
  const electron = new FakeElectron();
  electron.app.userData = mkdtempSync(path.join(tmpdir(), 'kiosk-app-'));
  const log = new MemoryLog();
  const timers = new FakeTimers();
  const runtime: KioskRuntime<number> = {
    mode: 'production',
    preloadPath: PRELOAD,
    offlinePagePath: OFFLINE,
    enrollmentPagePath: ENROLLMENT,
    fetch: offlineFetch,
    platform: 'win32',
    startedAt: 0,
    timers,
    log,
  };
  return { electron, log, timers, started: runKiosk(electron, configResult, runtime) };
}

function configFor(portalUrl: string): KioskConfigResult {
  return loadKioskConfig({ env: { KIOSK_PORTAL_URL: portalUrl }, platform: 'linux', userDataDir: '/nowhere', readTextFile: () => null });
}

describe('runKiosk', () => {
  it('starts the hardened window on the start page once Electron is ready', async () => {
    const { electron, started } = setUp();
    const running = await started;
    expect(running).not.toBeNull();
    expect(electron.menuRemoved).toBe(true);
    expect(electron.windows).toHaveLength(1);
    const [window] = electron.windows;
    expect(window?.options).toStrictEqual(buildKioskWindowOptions('production', PRELOAD));
    expect(window?.webContents.loads).toEqual([{ kind: 'url', target: 'https://portal.example.com/kiosk?kioskMode=true' }]);
    expect(window?.webContents.emitNavigation('will-navigate', 'https://evil.com/')).toBe(true);
  });

  it('answers the bridge for the portal with the app version and platform', async () => {
    const { electron, started } = setUp();
    await started;
    await expect(
      electron.ipcMain.invoke(KIOSK_CHANNELS.getAppInfo, { url: 'https://portal.example.com/kiosk', isMainFrame: true }),
    ).resolves.toEqual({
      ok: true,
      value: { version: '1.2.3', platform: 'win32' },
    });
  });

  it('quits at once when another kiosk already holds the single-instance lock', async () => {
    const electron = new FakeElectron();
    electron.app.gotLock = false;
    const log = new MemoryLog();
    const running = await runKiosk(electron, configFor('https://portal.example.com'), linuxRuntime({ log }));
    expect(running).toBeNull();
    expect(electron.app.quitCalls).toBe(1);
    expect(electron.windows).toEqual([]);
    expect(electron.ipcMain.handlers.size).toBe(0);
  });

  it('brings the running kiosk forward when a second instance starts', async () => {
    const { electron, started } = setUp();
    await started;
    electron.app.emit('second-instance');
    expect(electron.windows[0]?.shown).toBe(true);
    expect(electron.windows[0]?.focusCount).toBe(1);
  });

  it('shows the provisioning problems and exits 1 instead of opening a window', async () => {
    const { electron, log, started } = setUp(configFor('http://portal.example.com'));
    expect(await started).toBeNull();
    expect(electron.windows).toEqual([]);
    expect(electron.errorBoxes).toEqual([
      {
        title: 'Kiosk configuration problem',
        content: expect.stringContaining('KIOSK_PORTAL_URL: "http://portal.example.com" must use https'),
      },
    ]);
    expect(electron.app.exitCodes).toEqual([1]);
    expect(log.lines).toContainEqual(
      expect.objectContaining({ level: 'error', message: expect.stringContaining('The kiosk configuration is invalid') }),
    );
  });

  it('sends the window back to the start page when a GPU or utility process dies, not on a clean exit', async () => {
    const { electron, started } = setUp();
    await started;
    const contents = electron.windows[0]?.webContents;
    electron.app.emit('child-process-gone', {}, { type: 'Utility', reason: 'clean-exit', exitCode: 0 });
    expect(contents?.loads).toHaveLength(1);
    electron.app.emit('child-process-gone', {}, { type: 'GPU', reason: 'crashed', exitCode: 1 });
    expect(contents?.loads).toHaveLength(2);
    expect(contents?.loads.at(-1)).toEqual({ kind: 'url', target: 'https://portal.example.com/kiosk?kioskMode=true' });
  });

  it('quits when the window is closed (the OS supervisor restarts it)', async () => {
    const { electron, started } = setUp();
    await started;
    electron.app.emit('window-all-closed');
    expect(electron.app.quitCalls).toBe(1);
  });

  it('logs the portal origin and clinic at start, nothing more', async () => {
    const { log, started } = setUp();
    await started;
    expect(log.lines).toContainEqual({
      level: 'info',
      message: '[startup] production start: portal https://portal.example.com (from KIOSK_PORTAL_URL)',
    });
  });
});

describe('runKiosk with enrollment', () => {
  it('enrolls with the provisioned code, sends the token only to kiosk routes, and asks for staff once revoked', async () => {
    const electron = new FakeElectron();
    electron.app.userData = mkdtempSync(path.join(tmpdir(), 'kiosk-app-'));
    const configFile = path.join(electron.app.userData, 'kiosk.json');
    writeFileSync(configFile, JSON.stringify({ portalUrl: 'https://portal.example.com', enrollmentCode: '7KQ3-M9XD' }));
    const configResult = loadKioskConfig({
      env: { KIOSK_CONFIG_FILE: configFile },
      platform: 'linux',
      userDataDir: electron.app.userData,
      readTextFile: (file) => readFileSync(file, 'utf8'),
    });
    const requests: string[] = [];
    const fetch = (url: string) => {
      requests.push(url);
      if (url.endsWith('/api/kiosk/enroll')) {
        return Promise.resolve(
          new Response(JSON.stringify({ name: 'Lobby 1', clinicSlug: null, clinicName: null }), {
            headers: [['set-cookie', '__Host-portal_kiosk=tok-0123456789abcdefghij; Path=/; HttpOnly; Secure']],
          }),
        );
      }
      return Promise.resolve(Response.json({ code: 'kiosk_not_enrolled', message: 'again' }, { status: 401 }));
    };
    await runKiosk(electron, configResult, linuxRuntime({ fetch }));
    const contents = electron.windows[0]?.webContents;
    const webRequest = contents?.session.webRequest;
    const portalPage = { url: 'https://portal.example.com/kiosk', isMainFrame: true };
    await expect(electron.ipcMain.invoke(KIOSK_CHANNELS.getKioskIdentity, portalPage)).resolves.toEqual({
      ok: true,
      value: { name: 'Lobby 1', clinicSlug: null, clinicName: null, enrolled: true },
    });
    expect(webRequest?.send('https://portal.example.com/api/kiosk/me')).toEqual({ Authorization: 'Kiosk tok-0123456789abcdefghij' });
    expect(webRequest?.send('https://portal.example.com/api/booking')).toEqual({});
    expect(JSON.parse(readFileSync(configFile, 'utf8'))).toEqual({ portalUrl: 'https://portal.example.com' });

    webRequest?.complete('https://portal.example.com/api/kiosk/check-in/identity', 401);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(requests).toEqual(['https://portal.example.com/api/kiosk/enroll', 'https://portal.example.com/api/kiosk/me']);
    expect(contents?.loads.at(-1)).toEqual({ kind: 'file', target: ENROLLMENT, query: { reason: 'enroll-again', kiosk: 'Lobby 1' } });
    expect(webRequest?.send('https://portal.example.com/api/kiosk/me')).toEqual({});
    await expect(electron.ipcMain.invoke(KIOSK_CHANNELS.getKioskIdentity, portalPage)).resolves.toMatchObject({
      value: { name: 'Lobby 1', enrolled: false },
    });
  });
});

describe('runKiosk with updates', () => {
  async function start(provisioning: Record<string, string>, loadUpdater?: () => Promise<FakeUpdater>) {
    const electron = new FakeElectron();
    electron.app.userData = mkdtempSync(path.join(tmpdir(), 'kiosk-app-'));
    const configFile = path.join(electron.app.userData, 'kiosk.json');
    writeFileSync(configFile, JSON.stringify({ portalUrl: 'https://portal.example.com', ...provisioning }));
    const configResult = loadKioskConfig({
      env: { KIOSK_CONFIG_FILE: configFile },
      platform: 'linux',
      userDataDir: electron.app.userData,
      readTextFile: (file) => readFileSync(file, 'utf8'),
    });
    await runKiosk(electron, configResult, linuxRuntime(loadUpdater ? { loadUpdater } : {}));
    await new Promise((resolve) => setTimeout(resolve, 0));
  }

  it('sets up electron-updater with the provisioned feed and channel', async () => {
    const updater = new FakeUpdater();
    await start({ updateUrl: 'https://updates.example.com/kiosk', updateChannel: 'beta' }, () => Promise.resolve(updater));
    expect(updater.feed).toEqual({ provider: 'generic', url: 'https://updates.example.com/kiosk', channel: 'beta' });
  });

  it('never loads the updater without an updateUrl', async () => {
    let loaded = 0;
    await start({}, () => {
      loaded += 1;
      return Promise.resolve(new FakeUpdater());
    });
    expect(loaded).toBe(0);
  });
});
