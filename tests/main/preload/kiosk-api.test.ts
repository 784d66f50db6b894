import { describe, expect, it } from 'vitest';
import { KIOSK_CHANNELS, type KioskApi } from '@contract/kiosk-bridge';
import { registerKioskIpc } from '../../../src-main/ipc';
import {
  buildKioskApi,
  exposeKioskApi,
  KIOSK_GLOBAL,
  type PreloadContextBridge,
  type PreloadIpcRenderer,
} from '../../../src-preload/kiosk-api';
import { FakeIpcMain, MemoryLog, type FakeSender } from '../helpers/fake-electron';

/** A contextBridge that records what the preload exposes. */
class FakeContextBridge implements PreloadContextBridge {
  readonly exposed = new Map<string, KioskApi>();
  exposeInMainWorld(apiKey: string, api: KioskApi): void {
    if (this.exposed.has(apiKey)) throw new Error(`Cannot bind an API on top of an existing property on the window object: ${apiKey}`);
    this.exposed.set(apiKey, api);
  }
}

/** An ipcRenderer that records invokes and answers with a fixed reply. */
class RecordingIpcRenderer implements PreloadIpcRenderer {
  readonly calls: { channel: string; args: unknown[] }[] = [];
  constructor(private readonly reply: unknown) {}
  invoke(channel: string, ...args: unknown[]): Promise<unknown> {
    this.calls.push({ channel, args });
    return Promise.resolve(this.reply);
  }
}

/** An ipcRenderer wired to the real main-process handlers, as if sent from `sender`. */
function rendererConnectedToMain(sender: FakeSender): PreloadIpcRenderer {
  const ipcMain = new FakeIpcMain();
  registerKioskIpc(
    { ipcMain },
    { allowedOrigin: 'https://portal.example.com', appInfo: () => ({ version: '4.5.6', platform: 'linux' }), log: new MemoryLog() },
  );
  return { invoke: (channel, ...args) => ipcMain.invoke(channel, sender, ...args) };
}

describe('exposeKioskApi', () => {
  it('exposes window.kiosk only, with exactly the allow-listed function names', () => {
    const bridge = new FakeContextBridge();
    exposeKioskApi(bridge, new RecordingIpcRenderer(null));
    expect([...bridge.exposed.keys()]).toEqual([KIOSK_GLOBAL]);
    expect(KIOSK_GLOBAL).toBe('kiosk');
    const api = bridge.exposed.get('kiosk');
    expect(Object.keys(api ?? {}).sort()).toEqual(Object.keys(KIOSK_CHANNELS).sort());
    for (const value of Object.values(api ?? {})) expect(typeof value).toBe('function');
  });

  it('never hands the page ipcRenderer or a generic invoke', () => {
    const bridge = new FakeContextBridge();
    const ipcRenderer = new RecordingIpcRenderer(null);
    exposeKioskApi(bridge, ipcRenderer);
    const api: Record<string, unknown> = { ...bridge.exposed.get('kiosk') };
    expect(Object.values(api)).not.toContain(ipcRenderer);
    expect(api).not.toHaveProperty('invoke');
    expect(api).not.toHaveProperty('send');
    expect(api).not.toHaveProperty('ipcRenderer');
  });
});

describe('buildKioskApi', () => {
  it('getAppInfo invokes its own channel with no arguments', async () => {
    const ipcRenderer = new RecordingIpcRenderer({ ok: true, value: { version: '1.0.0', platform: 'linux' } });
    await expect(buildKioskApi(ipcRenderer).getAppInfo()).resolves.toEqual({ ok: true, value: { version: '1.0.0', platform: 'linux' } });
    expect(ipcRenderer.calls).toEqual([{ channel: KIOSK_CHANNELS.getAppInfo, args: [] }]);
  });

  it('passes an error envelope through with its code', async () => {
    const reply = { ok: false, error: { code: 'forbidden', message: 'no' } };
    await expect(buildKioskApi(new RecordingIpcRenderer(reply)).getAppInfo()).resolves.toEqual(reply);
  });

  it('rejects a reply that does not match the contract instead of handing it to the page', async () => {
    await expect(buildKioskApi(new RecordingIpcRenderer({ ok: true, value: { version: 1 } })).getAppInfo()).rejects.toThrow();
    await expect(buildKioskApi(new RecordingIpcRenderer('1.0.0')).getAppInfo()).rejects.toThrow();
  });

  it('reaches the real main-process handler end to end from the portal main frame', async () => {
    const api = buildKioskApi(rendererConnectedToMain({ url: 'https://portal.example.com/kiosk?kioskMode=true', isMainFrame: true }));
    await expect(api.getAppInfo()).resolves.toEqual({ ok: true, value: { version: '4.5.6', platform: 'linux' } });
  });

  it('gets the forbidden envelope end to end from an iframe', async () => {
    const api = buildKioskApi(rendererConnectedToMain({ url: 'https://portal.example.com/iframe/about', isMainFrame: false }));
    await expect(api.getAppInfo()).resolves.toEqual({
      ok: false,
      error: { code: 'forbidden', message: 'This caller may not use the kiosk bridge.' },
    });
  });
});
