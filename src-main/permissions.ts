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
 * The permissions the portal may use, each with the reason. Notably absent, on purpose:
 * - the microphone: 'media' is granted for video only (mediaTypes below), never audio.
 * - 'geolocation': the kiosk's clinic comes from the provisioning file, not from the device.
 * - 'notifications', 'clipboard-*': nothing to notify; the clipboard would carry data to the
 *   next person at the kiosk.
 * - 'fullscreen', 'pointerLock', 'keyboardLock': the window is already a kiosk; a page must not
 *   be able to change that.
 * - 'openExternal': the kiosk never hands a link to another application.
 */
export const PERMISSION_ALLOW_LIST: readonly { permission: KioskPermission; reason: string }[] = [
  {
    permission: 'media',
    reason:
      'the camera reads the QR code of a booking confirmation or an enrollment sheet held up to it ' +
      '(docs/rules/kiosk.md#identify-by-scanning); frames are decoded in the page and never sent or kept',
  },
];

/** 'media' is the camera and the microphone together: the kiosk may use the camera only. */
function onlyTheCamera(mediaTypes: readonly string[] | undefined): boolean {
  return mediaTypes !== undefined && mediaTypes.length > 0 && mediaTypes.every((type) => type === 'video');
}

/**
 * Whether `permission` is granted to a frame of `requestingUrl`: only allow-listed names, only
 * for the portal's own origin, and 'media' only for video. Anything unknown is denied.
 */
export function isPermissionAllowed(
  permission: string,
  requestingUrl: string,
  allowedOrigin: string,
  allowList: readonly { permission: string }[] = PERMISSION_ALLOW_LIST,
  mediaTypes?: readonly string[],
): boolean {
  if (!allowList.some((entry) => entry.permission === permission)) return false;
  if (permission === 'media' && !onlyTheCamera(mediaTypes)) return false;
  return isAllowedNavigation(requestingUrl, allowedOrigin);
}

/**
 * Installs deny-by-default permission handlers on the kiosk's session: the request handler (the
 * prompt), the check handler (the synchronous "is it granted?" most web APIs ask first) and the
 * device handler (WebHID/WebSerial/WebUSB); Electron's defaults would grant most of them.
 */
export function installPermissionHandlers(session: KioskSession, allowedOrigin: string, log: KioskLog): void {
  session.setPermissionRequestHandler((_contents, permission, callback, details) => {
    const allowed = isPermissionAllowed(permission, details.requestingUrl ?? '', allowedOrigin, PERMISSION_ALLOW_LIST, details.mediaTypes);
    if (!allowed) log.warn(`[permissions] denied request for ${permission}`);
    callback(allowed);
  });
  session.setPermissionCheckHandler((_contents, permission, requestingOrigin, details) =>
    isPermissionAllowed(
      permission,
      requestingOrigin,
      allowedOrigin,
      PERMISSION_ALLOW_LIST,
      details.mediaType === undefined ? undefined : [details.mediaType],
    ),
  );
  session.setDevicePermissionHandler((details) => {
    log.warn(`[permissions] denied ${details.deviceType} device access`);
    return false;
  });
}
