import type { KioskSession, RequestPermission, CheckPermission } from './electron-surface';
import type { KioskLog } from './kiosk-log';
import { isAllowedNavigation } from './navigation-policy';

/** Every permission name Electron 45 can ask about, request or check (kept complete by the type below). */
export const ELECTRON_PERMISSIONS = [
  'ar',
  'automatic-fullscreen',
  'background-fetch',
  'background-sync',
  'captured-surface-control',
  'clipboard-read',
  'clipboard-sanitized-write',
  'deprecated-sync-clipboard-read',
  'display-capture',
  'fileSystem',
  'fullscreen',
  'geolocation',
  'geolocation-approximate',
  'hand-tracking',
  'hid',
  'idle-detection',
  'keyboardLock',
  'local-fonts',
  'local-network',
  'local-network-access',
  'loopback-network',
  'media',
  'mediaKeySystem',
  'midi',
  'midiSysex',
  'nfc',
  'notifications',
  'openExternal',
  'payment-handler',
  'periodic-background-sync',
  'persistent-storage',
  'pointerLock',
  'screen-wake-lock',
  'sensors',
  'serial',
  'smart-card',
  'speaker-selection',
  'storage-access',
  'system-wake-lock',
  'top-level-storage-access',
  'unknown',
  'usb',
  'vr',
  'web-app-installation',
  'web-printing',
  'window-management',
] as const satisfies readonly KioskPermission[];
export type KioskPermission = RequestPermission | CheckPermission;
// Fails to compile when an Electron upgrade adds a permission name the list above lacks.
type Missing = Exclude<KioskPermission, (typeof ELECTRON_PERMISSIONS)[number]>;
const _listIsComplete: [Missing] extends [never] ? true : Missing = true;
void _listIsComplete;

/**
 * The permissions the portal may use, each with the reason. Empty: nothing in the portal needs
 * one yet. Notably absent, on purpose:
 * - 'media' (camera/microphone): a shared lobby screen must not film people; add it here only
 *   with the feature that needs it (e.g. scanning a referral) and its own test.
 * - 'geolocation': the kiosk's clinic comes from the provisioning file, not from the device.
 * - 'notifications', 'clipboard-*': nothing to notify; the clipboard would carry data to the
 *   next person at the kiosk.
 * - 'fullscreen', 'pointerLock', 'keyboardLock': the window is already a kiosk; a page must not
 *   be able to change that.
 * - 'openExternal': the kiosk never hands a link to another application.
 */
export const PERMISSION_ALLOW_LIST: readonly { permission: KioskPermission; reason: string }[] = [];

/**
 * Whether `permission` is granted to a frame of `requestingUrl`: only allow-listed names, and
 * only for the portal's own origin. Anything unknown is denied.
 */
export function isPermissionAllowed(
  permission: string,
  requestingUrl: string,
  allowedOrigin: string,
  allowList: readonly { permission: string }[] = PERMISSION_ALLOW_LIST,
): boolean {
  if (!allowList.some((entry) => entry.permission === permission)) return false;
  return isAllowedNavigation(requestingUrl, allowedOrigin);
}

/**
 * Installs deny-by-default permission handlers on the kiosk's session: the request handler (the
 * prompt), the check handler (the synchronous "is it granted?" most web APIs ask first) and the
 * device handler (WebHID/WebSerial/WebUSB); Electron's defaults would grant most of them.
 */
export function installPermissionHandlers(session: KioskSession, allowedOrigin: string, log: KioskLog): void {
  session.setPermissionRequestHandler((_contents, permission, callback, details) => {
    const allowed = isPermissionAllowed(permission, details.requestingUrl ?? '', allowedOrigin);
    if (!allowed) log.warn(`[permissions] denied request for ${permission}`);
    callback(allowed);
  });
  session.setPermissionCheckHandler((_contents, permission, requestingOrigin) =>
    isPermissionAllowed(permission, requestingOrigin, allowedOrigin),
  );
  session.setDevicePermissionHandler((details) => {
    log.warn(`[permissions] denied ${details.deviceType} device access`);
    return false;
  });
}
