import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import vm from 'node:vm';
import { resolveConfig } from 'electron-vite';
import { build, mergeConfig } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { KIOSK_CHANNELS } from '@contract/kiosk-bridge';

/**
 * Builds src-main and src-preload with the project's electron.vite.config.ts (through
 * electron-vite's own config presets) into a temporary app folder, then checks what Electron
 * would load: the packaged app has no node_modules, the preload runs sandboxed, and the main
 * bundle is an ES module. The Electron binary is not installed here, so the main bundle is run by
 * Node with a stand-in `electron` module that records what the kiosk asks of it.
 */

const projectRoot = path.resolve(import.meta.dirname, '../../..');
let appDir = '';
const outFile = (...parts: string[]) => path.join(appDir, 'out', ...parts);

beforeAll(async () => {
  appDir = mkdtempSync(path.join(tmpdir(), 'kiosk-bundles-'));
  // The packaged app carries the project's package.json (electron-builder.yml files), so "type" decides how out/main/index.js loads.
  const pkg: unknown = JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8'));
  writeFileSync(path.join(appDir, 'package.json'), JSON.stringify(pkg));
  const resolved = await resolveConfig({ configFile: path.join(projectRoot, 'electron.vite.config.ts') }, 'build', 'production');
  for (const target of ['main', 'preload'] as const) {
    const config = resolved.config?.[target];
    if (!config) throw new Error(`electron.vite.config.ts has no ${target} config`);
    await build(mergeConfig(config, { logLevel: 'silent', build: { outDir: outFile(target) } }));
  }
}, 120_000);

afterAll(() => {
  if (appDir) rmSync(appDir, { recursive: true, force: true });
});

/** The stand-in's record of `new BrowserWindow(options)`, with the fields the test reads. */
const BrowserWindowCall = z.object({
  call: z.literal('BrowserWindow'),
  options: z.looseObject({ webPreferences: z.looseObject({ preload: z.string() }) }),
});

const NODE_BUILTINS = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));

/** Every module specifier a bundle imports or requires. */
function specifiers(code: string): string[] {
  const found = [
    ...code.matchAll(/^\s*import\s[^'"]*?from\s*["']([^"']+)["']/gm),
    ...code.matchAll(/^\s*import\s*["']([^"']+)["']/gm),
    ...code.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g),
    ...code.matchAll(/\brequire\(\s*["']([^"']+)["']\s*\)/g),
  ];
  return [...new Set(found.map((match) => match[1] ?? ''))];
}

describe('preload bundle', () => {
  it('is one CommonJS file, out/preload/index.cjs, with nothing beside it', () => {
    expect(readdirSync(outFile('preload'))).toEqual(['index.cjs']);
  });

  it('requires nothing but electron (a sandboxed preload cannot load other files)', () => {
    expect(specifiers(readFileSync(outFile('preload', 'index.cjs'), 'utf8'))).toEqual(['electron']);
  });

  it('runs in a sandbox-like context and exposes only window.kiosk with the named functions', async () => {
    const exposed = new Map<string, unknown>();
    const invoked: string[] = [];
    const electron = {
      contextBridge: { exposeInMainWorld: (key: string, api: unknown) => exposed.set(key, api) },
      ipcRenderer: {
        invoke: (channel: string) => {
          invoked.push(channel);
          return Promise.resolve({ ok: true, value: { version: '9.9.9', platform: 'linux' } });
        },
      },
    };
    const module = { exports: {} };
    const sandboxRequire = (id: string) => {
      if (id === 'electron') return electron;
      throw new Error(`module not found: ${id}`);
    };
    vm.runInNewContext(readFileSync(outFile('preload', 'index.cjs'), 'utf8'), { require: sandboxRequire, module, exports: module.exports });

    expect([...exposed.keys()]).toEqual(['kiosk']);
    const api = exposed.get('kiosk');
    if (typeof api !== 'object' || api === null || !('getAppInfo' in api) || typeof api.getAppInfo !== 'function') {
      throw new Error('window.kiosk.getAppInfo is missing');
    }
    expect(Object.keys(api).sort()).toEqual([...Object.keys(KIOSK_CHANNELS), 'onIdleChange'].sort());
    await expect(api.getAppInfo()).resolves.toEqual({ ok: true, value: { version: '9.9.9', platform: 'linux' } });
    expect(invoked).toEqual([KIOSK_CHANNELS.getAppInfo]);
  });
});

describe('main bundle', () => {
  it('is out/main/index.js, the file package.json "main" names', () => {
    const pkg: unknown = JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8'));
    expect(pkg).toMatchObject({ type: 'module', main: 'out/main/index.js' });
    expect(existsSync(outFile('main', 'index.js'))).toBe(true);
  });

  it('imports only electron, Node built-ins and its own chunks (the package has no node_modules)', () => {
    const files = [
      outFile('main', 'index.js'),
      ...readdirSync(outFile('main', 'chunks'))
        .filter((name) => name.endsWith('.js'))
        .map((name) => outFile('main', 'chunks', name)),
    ];
    const external = files
      .flatMap((file) => specifiers(readFileSync(file, 'utf8')))
      .filter((id) => !id.startsWith('.') && id !== 'electron' && !NODE_BUILTINS.has(id));
    expect(external).toEqual([]);
  });

  it('starts the hardened kiosk on the start page when Electron loads it', () => {
    const stubDir = path.join(appDir, 'stub');
    mkdirSync(stubDir, { recursive: true });
    writeFileSync(path.join(stubDir, 'electron.mjs'), ELECTRON_STAND_IN.replaceAll('__APP_DIR__', JSON.stringify(appDir)));
    writeFileSync(
      path.join(stubDir, 'hooks.mjs'),
      `export async function resolve(specifier, context, next) {
        if (specifier === 'electron') return { url: new URL('./electron.mjs', import.meta.url).href, shortCircuit: true };
        return next(specifier, context);
      }`,
    );
    writeFileSync(
      path.join(stubDir, 'register.mjs'),
      `import { register } from 'node:module';\nregister('./hooks.mjs', import.meta.url);\n`,
    );

    const result = spawnSync(
      process.execPath,
      ['--import', pathToFileURL(path.join(stubDir, 'register.mjs')).href, outFile('main', 'index.js')],
      {
        cwd: appDir,
        env: { PATH: process.env.PATH ?? '', KIOSK_PORTAL_URL: 'https://portal.example.com' },
        encoding: 'utf8',
        timeout: 30_000,
      },
    );
    // Not enrolled (no stored token, no code): the one warning; the portal still loads and decides.
    expect(result.stderr).toBe('[kiosk] [enrollment] no stored kiosk token and no enrollmentCode in the provisioning file\n');
    expect(result.status).toBe(0);
    const calls = result.stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line): unknown => JSON.parse(line));

    expect(calls).toContainEqual({ call: 'lock' });
    expect(calls).toContainEqual({ call: 'setApplicationMenu', menu: null });
    expect(calls).toContainEqual({ call: 'ipcMain.handle', channel: KIOSK_CHANNELS.getAppInfo });
    const window = calls.map((call) => BrowserWindowCall.safeParse(call)).find((parsed) => parsed.success)?.data;
    expect(window?.options).toMatchObject({
      kiosk: true,
      fullscreen: true,
      webPreferences: { sandbox: true, contextIsolation: true, nodeIntegration: false, devTools: false },
    });
    expect(window?.options.webPreferences.preload).toBe(outFile('preload', 'index.cjs'));
    expect(existsSync(window?.options.webPreferences.preload ?? '')).toBe(true);
    expect(calls).toContainEqual({ call: 'setWindowOpenHandler' });
    expect(calls).toContainEqual({ call: 'setPermissionRequestHandler' });
    expect(calls).toContainEqual({ call: 'webRequest.onBeforeSendHeaders' });
    expect(calls).toContainEqual({ call: 'loadURL', url: 'https://portal.example.com/kiosk?kioskMode=true' });
  });
});

/** The stand-in `electron` for running the main bundle under Node: records each call as a JSON line. */
const ELECTRON_STAND_IN = `
import { EventEmitter } from 'node:events';
const record = (entry) => process.stdout.write(JSON.stringify(entry) + '\\n');
class WebContents extends EventEmitter {
  session = {
    setPermissionRequestHandler: () => record({ call: 'setPermissionRequestHandler' }),
    setPermissionCheckHandler: () => record({ call: 'setPermissionCheckHandler' }),
    setDevicePermissionHandler: () => record({ call: 'setDevicePermissionHandler' }),
    webRequest: {
      onBeforeSendHeaders: () => record({ call: 'webRequest.onBeforeSendHeaders' }),
      onCompleted: () => record({ call: 'webRequest.onCompleted' }),
    },
    cookies: { get: () => Promise.resolve([]), remove: () => Promise.resolve() },
    clearStorageData: () => Promise.resolve(),
    clearAuthCache: () => Promise.resolve(),
    clearCache: () => Promise.resolve(),
  };
  navigationHistory = { clear() {} };
  send() {}
  executeJavaScript() { return Promise.resolve(); }
  setWindowOpenHandler() { record({ call: 'setWindowOpenHandler' }); }
  setVisualZoomLevelLimits() { return Promise.resolve(); }
  loadURL(url) { record({ call: 'loadURL', url }); return Promise.resolve(); }
  loadFile(file) { record({ call: 'loadFile', file }); return Promise.resolve(); }
  getURL() { return ''; }
  forcefullyCrashRenderer() {}
  isDestroyed() { return false; }
}
export class BrowserWindow extends EventEmitter {
  constructor(options) { super(); record({ call: 'BrowserWindow', options }); this.webContents = new WebContents(); }
  show() {} focus() {} isDestroyed() { return false; }
}
class App extends EventEmitter {
  isPackaged = true;
  requestSingleInstanceLock() { record({ call: 'lock' }); return true; }
  whenReady() { return Promise.resolve(); }
  getVersion() { return '0.0.0-test'; }
  getAppPath() { return __APP_DIR__; }
  getPath() { return __APP_DIR__ + '/user-data'; }
  relaunch() { record({ call: 'relaunch' }); }
  exit(code) { record({ call: 'exit', code }); }
  quit() { record({ call: 'quit' }); }
}
export const app = new App();
export const ipcMain = { handle: (channel) => record({ call: 'ipcMain.handle', channel }) };
export const Menu = { setApplicationMenu: (menu) => record({ call: 'setApplicationMenu', menu }) };
export const dialog = { showErrorBox: (title, content) => record({ call: 'showErrorBox', title, content }) };
export const safeStorage = {
  isEncryptionAvailable: () => true,
  getSelectedStorageBackend: () => 'gnome_libsecret',
  encryptString: (text) => Buffer.from(text).reverse(),
  decryptString: (data) => Buffer.from(data).reverse().toString(),
};
class PowerMonitor extends EventEmitter {
  getSystemIdleTime() { return 0; }
}
export const powerMonitor = new PowerMonitor();
export default { app, BrowserWindow, ipcMain, Menu, dialog, safeStorage, powerMonitor };
`;
