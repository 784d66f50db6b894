import type { KioskApp } from './electron-surface';
import type { KioskLog } from './kiosk-log';

/** The process events this module listens to (Node's `process` satisfies it). */
export interface ProcessEvents {
  on(event: 'uncaughtException', listener: (error: Error) => void): unknown;
  on(event: 'unhandledRejection', listener: (reason: unknown) => void): unknown;
}

export interface GlobalErrorOptions {
  process: ProcessEvents;
  app: Pick<KioskApp, 'relaunch' | 'exit'>;
  log: KioskLog;
  /** Sends queued error reports (Sentry) before the process goes; bounded by {@link FLUSH_TIMEOUT_MS}. */
  flush?: () => Promise<unknown>;
  /** Injected so tests can run the timeout without waiting. */
  setTimeout?: (callback: () => void, ms: number) => unknown;
}

/** A kiosk that waits for a dead network to deliver a crash report is a kiosk that stays down. */
export const FLUSH_TIMEOUT_MS = 2_000;

/**
 * A main-process error leaves the app in an unknown state, and a kiosk has nobody to click
 * "restart": log it with the `[kiosk]` tag, then relaunch (app.relaunch() + app.exit(0), the
 * order Electron documents). Only the first error relaunches; later ones while we are going are
 * logged only. A crash loop is left to the external supervisor (resources/kiosk/README.md).
 */
export function installGlobalErrorHandlers(options: GlobalErrorOptions): { relaunching(): boolean } {
  const { log } = options;
  const wait = options.setTimeout ?? ((callback: () => void, ms: number) => setTimeout(callback, ms));
  let relaunching = false;

  const fail = (kind: string, error: unknown) => {
    log.error(`[global-errors] ${kind}${relaunching ? ' while relaunching' : ', relaunching'}`, error);
    if (relaunching) return;
    relaunching = true;
    const relaunch = () => {
      options.app.relaunch();
      options.app.exit(0);
    };
    if (!options.flush) {
      relaunch();
      return;
    }
    let done = false;
    const once = () => {
      if (done) return;
      done = true;
      relaunch();
    };
    wait(once, FLUSH_TIMEOUT_MS);
    options.flush().then(once, once);
  };

  options.process.on('uncaughtException', (error) => fail('uncaughtException', error));
  options.process.on('unhandledRejection', (reason) => fail('unhandledRejection', reason));
  return { relaunching: () => relaunching };
}
