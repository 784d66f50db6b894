import { z } from 'zod';
import type { ErrorCode } from '@contract/errors';
import {
  DoneSchema,
  KIOSK_CHANNELS,
  KioskAppInfoSchema,
  KioskBridgeIdentitySchema,
  SystemIdleSecondsSchema,
  type BridgeResult,
  type KioskAppInfo,
  type KioskBridge,
  type KioskBridgeIdentity,
} from '@contract/kiosk-bridge';
import type { KioskInvokeEvent, KioskIpcMain } from './electron-surface';
import type { KioskLog } from './kiosk-log';
import { isAllowedNavigation, originForLog } from './navigation-policy';

/** The invoked bridge methods; KIOSK_CHANNELS and KioskBridge must name the same ones. */
type BridgeMethod = keyof typeof KIOSK_CHANNELS & keyof KioskBridge;
type ArgsOf = { [K in BridgeMethod]: Parameters<KioskBridge[K]> };
/** The value inside the envelope each bridge method resolves to. */
type ValueOf = { [K in BridgeMethod]: Awaited<ReturnType<KioskBridge[K]>> extends BridgeResult<infer T> ? T : never };

/** One handler per bridge method: argument schema, result schema and the work. A channel without a handler does not compile. */
type HandlerTable = {
  [K in BridgeMethod]: {
    args: z.ZodType<ArgsOf[K]>;
    result: z.ZodType<ValueOf[K]>;
    handle(...args: ArgsOf[K]): ValueOf[K] | Promise<ValueOf[K]>;
  };
};

function isBridgeMethod(name: string): name is BridgeMethod {
  return Object.hasOwn(KIOSK_CHANNELS, name);
}

export interface KioskIpcDeps {
  /** The portal origin: the only origin whose main frame may call the bridge. */
  allowedOrigin: string;
  appInfo(): KioskAppInfo;
  /** Name and clinic from enrollment; never the token. */
  identity(): KioskBridgeIdentity;
  systemIdleSeconds(): number;
  endPatientSession(): Promise<void>;
  reportPatientActivity(): void;
  log: KioskLog;
}

/** Why a sender was refused, or null when it may call. Exported for the tests' table. */
export function senderProblem(event: KioskInvokeEvent, allowedOrigin: string): string | null {
  const frame = event.senderFrame;
  if (!frame) return 'sender frame is gone';
  // An iframe on the portal could be third-party content; only the top document speaks to the kiosk.
  if (frame.parent !== null) return 'sender is not the main frame';
  if (!isAllowedNavigation(frame.url, allowedOrigin)) return `sender origin ${originForLog(frame.url)} is not the portal`;
  return null;
}

function failure(code: ErrorCode, message: string): { ok: false; error: { code: ErrorCode; message: string } } {
  return { ok: false, error: { code, message } };
}

/**
 * Registers one `ipcMain.handle` per KIOSK_CHANNELS entry. Each handler checks the sender (main
 * frame of the portal origin), validates the arguments with the contract schema, runs, validates
 * its own result, and answers with the BridgeResult envelope: errors thrown across `invoke` lose
 * their type, an envelope keeps the code.
 */
export function registerKioskIpc(surface: { ipcMain: KioskIpcMain }, deps: KioskIpcDeps): void {
  const handlers: HandlerTable = {
    getAppInfo: {
      args: z.tuple([]),
      result: KioskAppInfoSchema,
      handle: () => deps.appInfo(),
    },
    getKioskIdentity: {
      args: z.tuple([]),
      result: KioskBridgeIdentitySchema,
      handle: () => deps.identity(),
    },
    getSystemIdleSeconds: {
      args: z.tuple([]),
      result: SystemIdleSecondsSchema,
      // Electron answers whole seconds; floor anyway so a platform quirk cannot break the schema.
      handle: () => Math.max(0, Math.floor(deps.systemIdleSeconds())),
    },
    endPatientSession: {
      args: z.tuple([]),
      result: DoneSchema,
      handle: async () => {
        await deps.endPatientSession();
        return null;
      },
    },
    reportPatientActivity: {
      args: z.tuple([]),
      result: DoneSchema,
      handle: () => {
        deps.reportPatientActivity();
        return null;
      },
    },
  };

  const register = <K extends BridgeMethod>(name: K, handler: HandlerTable[K]) => {
    const channel = KIOSK_CHANNELS[name];
    surface.ipcMain.handle(channel, async (event, ...rawArgs): Promise<BridgeResult<ValueOf[K]>> => {
      const refused = senderProblem(event, deps.allowedOrigin);
      if (refused) {
        deps.log.warn(`[ipc] ${channel} refused: ${refused}`);
        return failure('forbidden', 'This caller may not use the kiosk bridge.');
      }
      const args = handler.args.safeParse(rawArgs);
      if (!args.success) {
        deps.log.warn(`[ipc] ${channel} refused: invalid arguments`);
        return failure('validation_failed', 'Invalid arguments for the kiosk bridge.');
      }
      try {
        const value = handler.result.parse(await handler.handle(...args.data));
        return { ok: true, value };
      } catch (error) {
        deps.log.error(`[ipc] ${channel} failed`, error);
        return failure('internal_error', 'The kiosk could not complete the request.');
      }
    });
  };

  for (const name of Object.keys(KIOSK_CHANNELS).filter(isBridgeMethod)) register(name, handlers[name]);
}
