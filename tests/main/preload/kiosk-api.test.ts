import { describe, expect, it } from 'vitest';
import { EventEmitter } from 'node:events';
import { KIOSK_CHANNELS, KIOSK_EVENTS, type IdleChange, type KioskBridge } from '@contract/kiosk-bridge';
import { registerKioskIpc } from '../../../src-main/ipc';
import {
  buildKioskApi,
  exposeKioskApi,
  KIOSK_GLOBAL,
  type PreloadContextBridge,
  type PreloadIpcRenderer,
} from '../../../src-preload/kiosk-api';
import { FakeIpcMain, MemoryLog, testIpcDeps, type FakeSender } from '../helpers/fake-electron';

/** A contextBridge that records what the preload exposes. */
class FakeContextBridge implements PreloadContextBridge {
  readonly exposed = new Map<string, KioskBridge>();
  exposeInMainWorld(apiKey: string, api: KioskBridge): void {
    if (this.exposed.has(apiKey)) throw new Error(`Cannot bind an API on top of an existing property on the window object: ${apiKey}`);
    this.exposed.set(apiKey, api);
  }
}

/** An ipcRenderer that records invokes and answers with a fixed reply; `emit` plays a push from main. */
class RecordingIpcRenderer extends EventEmitter implements PreloadIpcRenderer {
  readonly calls: { channel: string; args: unknown[] }[] = [];
  constructor(private readonly reply: unknown) {
    super();
  }
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
    testIpcDeps({
      allowedOrigin: 'https://portal.example.com',
      appInfo: () => ({ version: '4.5.6', platform: 'linux' }),
      log: new MemoryLog(),
    }),
  );
  const events = new EventEmitter();
  return {
    invoke: (channel, ...args) => ipcMain.invoke(channel, sender, ...args),
    on: (channel, listener) => events.on(channel, listener),
    removeListener: (channel, listener) => events.removeListener(channel, listener),
  };
}

describe('exposeKioskApi', () => {
  it('exposes window.kiosk only, with exactly the allow-listed function names', () => {
    const bridge = new FakeContextBridge();
    exposeKioskApi(bridge, new RecordingIpcRenderer(null));
    expect([...bridge.exposed.keys()]).toEqual([KIOSK_GLOBAL]);
    expect(KIOSK_GLOBAL).toBe('kiosk');
    const api = bridge.exposed.get('kiosk');
    expect(Object.keys(api ?? {}).sort()).toEqual([...Object.keys(KIOSK_CHANNELS), 'onIdleChange'].sort());
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

describe('buildKioskApi: the new calls', () => {
  it.each([
    ['getKioskIdentity', KIOSK_CHANNELS.getKioskIdentity, { name: 'Lobby 1', clinicSlug: null, clinicName: null, enrolled: true }],
    ['getSystemIdleSeconds', KIOSK_CHANNELS.getSystemIdleSeconds, 42],
    ['endPatientSession', KIOSK_CHANNELS.endPatientSession, null],
    ['reportPatientActivity', KIOSK_CHANNELS.reportPatientActivity, null],
  ] as const)('%s invokes its own channel with no arguments and returns the checked value', async (name, channel, value) => {
    const ipcRenderer = new RecordingIpcRenderer({ ok: true, value });
    await expect(buildKioskApi(ipcRenderer)[name]()).resolves.toEqual({ ok: true, value });
    expect(ipcRenderer.calls).toEqual([{ channel, args: [] }]);
  });

  it.each([
    ['getKioskIdentity', { name: 'Lobby 1', clinicSlug: null, clinicName: null, enrolled: true, token: 'leak' }],
    ['getSystemIdleSeconds', -1],
    ['endPatientSession', 'done'],
    ['reportPatientActivity', {}],
  ] as const)('%s rejects a reply outside the contract', async (name, value) => {
    await expect(buildKioskApi(new RecordingIpcRenderer({ ok: true, value }))[name]()).rejects.toThrow();
  });

  it('onIdleChange delivers checked pushes without the IPC event, and unsubscribes', () => {
    const ipcRenderer = new RecordingIpcRenderer(null);
    const seen: IdleChange[] = [];
    const unsubscribe = buildKioskApi(ipcRenderer).onIdleChange((change) => seen.push(change));
    ipcRenderer.emit(KIOSK_EVENTS.idleChange, { sender: ipcRenderer }, { idleSeconds: 12, reason: 'tick' });
    ipcRenderer.emit(KIOSK_EVENTS.idleChange, {}, { idleSeconds: 'x', reason: 'tick' });
    ipcRenderer.emit(KIOSK_EVENTS.idleChange, {}, { idleSeconds: 1, reason: 'tick', extra: true });
    expect(seen).toEqual([{ idleSeconds: 12, reason: 'tick' }]);
    unsubscribe();
    ipcRenderer.emit(KIOSK_EVENTS.idleChange, {}, { idleSeconds: 13, reason: 'suspend' });
    expect(seen).toHaveLength(1);
    expect(ipcRenderer.listenerCount(KIOSK_EVENTS.idleChange)).toBe(0);
  });

  it('reaches the real identity handler end to end, without any token field', async () => {
    const api = buildKioskApi(rendererConnectedToMain({ url: 'https://portal.example.com/kiosk', isMainFrame: true }));
    await expect(api.getKioskIdentity()).resolves.toEqual({
      ok: true,
      value: { name: 'Lobby 1', clinicSlug: 'parramatta', clinicName: 'Parramatta', enrolled: true },
    });
  });
});
