import { z } from 'zod';
import type { ErrorCode } from './errors';

/**
 * The whole surface the kiosk preload gives the renderer as `window.kiosk`.
 * Shared by src-preload (builds it), src-main (answers it) and src-web (uses it when present).
 */
export const KIOSK_CHANNELS = {
  getAppInfo: 'kiosk:get-app-info',
} as const;
export type KioskChannel = (typeof KIOSK_CHANNELS)[keyof typeof KIOSK_CHANNELS];

export const KioskAppInfoSchema = z.object({
  version: z.string(),
  platform: z.string(),
});
export type KioskAppInfo = z.infer<typeof KioskAppInfoSchema>;

export type BridgeResult<T> = { ok: true; value: T } | { ok: false; error: { code: ErrorCode; message: string } };

export interface KioskApi {
  /** The kiosk app's version, shown in the footer tooltip and sent with error reports. */
  getAppInfo(): Promise<BridgeResult<KioskAppInfo>>;
}
