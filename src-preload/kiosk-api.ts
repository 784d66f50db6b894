import { z } from 'zod';
import { ErrorCodeSchema } from '@contract/errors';
import { KIOSK_CHANNELS, KioskAppInfoSchema, type KioskApi } from '@contract/kiosk-bridge';

/** The two preload-side Electron calls we use; src-preload/index.ts passes the real ones, tests pass fakes. */
export interface PreloadIpcRenderer {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
}
export interface PreloadContextBridge {
  exposeInMainWorld(apiKey: string, api: KioskApi): void;
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

/**
 * Builds `window.kiosk` from named `ipcRenderer.invoke` calls: one function per KIOSK_CHANNELS
 * entry and nothing else, so the page can never pick a channel or reach ipcRenderer
 * (docs/rules/kiosk.md#bridge). Main's reply is parsed with the contract schema so the
 * page gets exactly the typed envelope and no extra fields.
 */
export function buildKioskApi(ipcRenderer: PreloadIpcRenderer): KioskApi {
  return {
    getAppInfo: async () => AppInfoResult.parse(await ipcRenderer.invoke(KIOSK_CHANNELS.getAppInfo)),
  };
}

/** Exposes the kiosk API in the page's world (contextIsolation keeps everything else out of reach). */
export function exposeKioskApi(contextBridge: PreloadContextBridge, ipcRenderer: PreloadIpcRenderer): void {
  contextBridge.exposeInMainWorld(KIOSK_GLOBAL, buildKioskApi(ipcRenderer));
}
