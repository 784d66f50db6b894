import { z } from 'zod';
import type { ErrorCode } from './errors';

/**
 * The whole surface the kiosk preload gives the renderer as `window.kiosk`.
 * Shared by src-preload (builds it), src-main (answers it) and src-web (uses it when present).
 * Every channel is answered by main only for the portal's main frame (docs/rules/kiosk.md#bridge).
 */
export const KIOSK_CHANNELS = {
  getAppInfo: 'kiosk:get-app-info',
  getKioskIdentity: 'kiosk:get-kiosk-identity',
  getSystemIdleSeconds: 'kiosk:get-system-idle-seconds',
  endPatientSession: 'kiosk:end-patient-session',
  reportPatientActivity: 'kiosk:report-patient-activity',
} as const;
export type KioskChannel = (typeof KIOSK_CHANNELS)[keyof typeof KIOSK_CHANNELS];

/** Events main pushes to the preload (never invoked by the page). */
export const KIOSK_EVENTS = {
  idleChange: 'kiosk:idle-change',
} as const;

export const KioskAppInfoSchema = z.object({
  version: z.string(),
  platform: z.string(),
});
export type KioskAppInfo = z.infer<typeof KioskAppInfoSchema>;

/** What the page may know about the kiosk: never its token. */
export const KioskBridgeIdentitySchema = z.strictObject({
  name: z.string().nullable(),
  clinicSlug: z.string().nullable(),
  clinicName: z.string().nullable(),
  enrolled: z.boolean(),
});
export type KioskBridgeIdentity = z.infer<typeof KioskBridgeIdentitySchema>;

/** Seconds since the last hardware input. Some systems report 0 forever: it may only shorten a wait. */
export const SystemIdleSecondsSchema = z.number().int().min(0);

export const IDLE_CHANGE_REASONS = ['tick', 'lock-screen', 'unlock-screen', 'suspend', 'resume'] as const;
/** Pushed every few seconds and on lock/suspend/resume; a lock or suspend ends the patient's visit. */
export const IdleChangeSchema = z.strictObject({
  idleSeconds: SystemIdleSecondsSchema,
  reason: z.enum(IDLE_CHANGE_REASONS),
});
export type IdleChange = z.infer<typeof IdleChangeSchema>;

/** The answer of calls that only act. */
export const DoneSchema = z.null();

export type BridgeResult<T> = { ok: true; value: T } | { ok: false; error: { code: ErrorCode; message: string } };

/** Everything the current kiosk app exposes; preload builds it and main answers it. */
export interface KioskBridge {
  /** The kiosk app's version, shown in the footer tooltip and sent with error reports. */
  getAppInfo(): Promise<BridgeResult<KioskAppInfo>>;
  /** The kiosk's name and clinic from enrollment, and whether it is enrolled. */
  getKioskIdentity(): Promise<BridgeResult<KioskBridgeIdentity>>;
  /** The OS's idle time in seconds (powerMonitor.getSystemIdleTime). */
  getSystemIdleSeconds(): Promise<BridgeResult<number>>;
  /** Pushes {idleSeconds, reason}; returns the unsubscribe. */
  onIdleChange(listener: (change: IdleChange) => void): () => void;
  /** Main wipes the patient's traces from the session (not the kiosk's own) and loads the kiosk home. */
  endPatientSession(): Promise<BridgeResult<null>>;
  /** A patient touched the page: main keeps the time only (heartbeat, updates wait for idle). */
  reportPatientActivity(): Promise<BridgeResult<null>>;
}

/**
 * The web app's view of `window.kiosk`. The portal is deployed apart from the kiosk app, so a
 * kiosk in the field may run an older app with only getAppInfo: later methods are optional here
 * and the web app checks for them.
 */
export type KioskApi = Pick<KioskBridge, 'getAppInfo'> & Partial<Omit<KioskBridge, 'getAppInfo'>>;
