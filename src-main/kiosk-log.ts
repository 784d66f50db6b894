/**
 * Where main-process modules write. Lines carry a component tag (`[crash-recovery] …`) and never
 * a patient's data: URLs are reduced to their origin before they are logged.
 */
export interface KioskLog {
  info(message: string): void;
  warn(message: string): void;
  error(message: string, error?: unknown): void;
}

/** The console-backed log main.ts uses; every line starts with `[kiosk]` so it can be grepped out of a shared journal. */
export function consoleLog(target: Pick<Console, 'info' | 'warn' | 'error'> = console): KioskLog {
  return {
    info: (message) => target.info(`[kiosk] ${message}`),
    warn: (message) => target.warn(`[kiosk] ${message}`),
    error: (message, error) => (error === undefined ? target.error(`[kiosk] ${message}`) : target.error(`[kiosk] ${message}`, error)),
  };
}
