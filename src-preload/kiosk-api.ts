import { z } from 'zod';
import { ErrorCodeSchema } from '@contract/errors';
import {
  DoneSchema,
  IdleChangeSchema,
  KIOSK_CHANNELS,
  KIOSK_EVENTS,
  KioskAppInfoSchema,
  KioskBridgeIdentitySchema,
  SystemIdleSecondsSchema,
  type IdleChange,
  type KioskBridge,
} from '@contract/kiosk-bridge';

/** The preload-side Electron calls we use; src-preload/index.ts passes the real ones, tests pass fakes. */
export interface PreloadIpcRenderer {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
  removeListener(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}
export interface PreloadContextBridge {
  exposeInMainWorld(apiKey: string, api: KioskBridge): void;
}

/** The name the web app reads (`window.kiosk`, see src-web/platform/kiosk.ts). */
export const KIOSK_GLOBAL = 'kiosk';

function envelope<T extends z.ZodType>(value: T) {
  return z.discriminatedUnion('ok', [
    z.object({ ok: z.literal(true), value }),
    z.object({ ok: z.literal(false), error: z.object({ code: ErrorCodeSchema, message: z.string() }) }),
  ]);
}

const AppInfoResult = envelope(KioskAppInfoSchema);
const IdentityResult = envelope(KioskBridgeIdentitySchema);
const IdleSecondsResult = envelope(SystemIdleSecondsSchema);
const DoneResult = envelope(DoneSchema);

/**
 * Builds `window.kiosk` from named `ipcRenderer.invoke` calls: one function per KIOSK_CHANNELS
 * entry, plus the idle subscription, and nothing else, so the page can never pick a channel or
 * reach ipcRenderer (docs/rules/kiosk.md#bridge). Main's replies and pushes are parsed with the
 * contract schema so the page gets exactly the typed values and no extra fields; the IPC event
 * object (which leads back to ipcRenderer) never reaches the page.
 */
export function buildKioskApi(ipcRenderer: PreloadIpcRenderer): KioskBridge {
  return {
    getAppInfo: async () => AppInfoResult.parse(await ipcRenderer.invoke(KIOSK_CHANNELS.getAppInfo)),
    getKioskIdentity: async () => IdentityResult.parse(await ipcRenderer.invoke(KIOSK_CHANNELS.getKioskIdentity)),
    getSystemIdleSeconds: async () => IdleSecondsResult.parse(await ipcRenderer.invoke(KIOSK_CHANNELS.getSystemIdleSeconds)),
    endPatientSession: async () => DoneResult.parse(await ipcRenderer.invoke(KIOSK_CHANNELS.endPatientSession)),
    reportPatientActivity: async () => DoneResult.parse(await ipcRenderer.invoke(KIOSK_CHANNELS.reportPatientActivity)),
    onIdleChange: (listener: (change: IdleChange) => void) => {
      if (typeof listener !== 'function') throw new TypeError('onIdleChange needs a function');
      const handler = (_event: unknown, payload: unknown) => {
        const change = IdleChangeSchema.safeParse(payload);
        if (change.success) listener(change.data);
      };
      ipcRenderer.on(KIOSK_EVENTS.idleChange, handler);
      return () => {
        ipcRenderer.removeListener(KIOSK_EVENTS.idleChange, handler);
      };
    },
  };
}

/** Exposes the kiosk API in the page's world (contextIsolation keeps everything else out of reach). */
export function exposeKioskApi(contextBridge: PreloadContextBridge, ipcRenderer: PreloadIpcRenderer): void {
  contextBridge.exposeInMainWorld(KIOSK_GLOBAL, buildKioskApi(ipcRenderer));
}
