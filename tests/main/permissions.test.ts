import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RequestPermission } from '../../src-main/electron-surface';
import {
  ELECTRON_PERMISSIONS,
  installPermissionHandlers,
  isPermissionAllowed,
  PERMISSION_ALLOW_LIST,
  type KioskPermission,
} from '../../src-main/permissions';
import { FakeSession, MemoryLog } from './helpers/fake-electron';

const PORTAL = 'https://portal.example.com';

function setUp() {
  const session = new FakeSession();
  const log = new MemoryLog();
  installPermissionHandlers(session, PORTAL, log);
  const { requestHandler, checkHandler, deviceHandler } = session;
  if (!requestHandler || !checkHandler || !deviceHandler) throw new Error('a permission handler is missing');
  const request = (permission: RequestPermission, requestingUrl = `${PORTAL}/kiosk`, mediaTypes?: string[]) => {
    const answers: boolean[] = [];
    requestHandler({}, permission, (granted) => answers.push(granted), { requestingUrl, mediaTypes });
    return answers;
  };
  return { request, checkHandler, deviceHandler, log };
}

describe('permission allow-list', () => {
  it('holds only the camera (for scanning QR codes), with its reason', () => {
    expect(PERMISSION_ALLOW_LIST.map((entry) => entry.permission)).toEqual(['media']);
    expect(PERMISSION_ALLOW_LIST[0]?.reason).toMatch(/QR code/);
  });

  it('lists every Electron permission name exactly once', () => {
    expect(new Set(ELECTRON_PERMISSIONS).size).toBe(ELECTRON_PERMISSIONS.length);
  });
});

describe('installPermissionHandlers', () => {
  it.each(ELECTRON_PERMISSIONS)(
    'denies %s by request, check and from the portal itself (media: without asking for video only)',
    (permission) => {
      const { request, checkHandler } = setUp();
      if (permission !== 'hid' && permission !== 'serial' && permission !== 'usb' && permission !== 'deprecated-sync-clipboard-read') {
        expect(request(permission)).toEqual([false]);
      }
      if (
        permission !== 'display-capture' &&
        permission !== 'keyboardLock' &&
        permission !== 'speaker-selection' &&
        permission !== 'unknown' &&
        permission !== 'window-management'
      ) {
        expect(checkHandler(null, permission, PORTAL, { requestingUrl: `${PORTAL}/kiosk` })).toBe(false);
      }
    },
  );

  it('answers every request exactly once and logs the denial', () => {
    const { request, log } = setUp();
    expect(request('media', `${PORTAL}/kiosk`, ['audio'])).toEqual([false]);
    expect(log.text()).toContain('[permissions] denied request for media');
  });

  it('grants the camera to the portal only: never the microphone, never another origin', () => {
    const { request, checkHandler } = setUp();
    expect(request('media', `${PORTAL}/kiosk`, ['video'])).toEqual([true]);
    expect(request('media', `${PORTAL}/kiosk`, ['video', 'audio'])).toEqual([false]);
    expect(request('media', `${PORTAL}/kiosk`, [])).toEqual([false]);
    expect(request('media', `${PORTAL}/kiosk`)).toEqual([false]);
    expect(request('media', 'https://evil.example/', ['video'])).toEqual([false]);
    expect(checkHandler(null, 'media', PORTAL, { requestingUrl: `${PORTAL}/kiosk`, mediaType: 'video' })).toBe(true);
    expect(checkHandler(null, 'media', PORTAL, { requestingUrl: `${PORTAL}/kiosk`, mediaType: 'audio' })).toBe(false);
    expect(checkHandler(null, 'media', 'https://evil.example', { mediaType: 'video' })).toBe(false);
  });

  it('denies WebHID, WebSerial and WebUSB devices', () => {
    const { deviceHandler } = setUp();
    for (const deviceType of ['hid', 'serial', 'usb'] as const) {
      expect(deviceHandler({ deviceType, origin: PORTAL })).toBe(false);
    }
  });
});

describe('isPermissionAllowed', () => {
  it('denies any string, listed or not, with the real allow-list when no camera-only media request is made', () => {
    fc.assert(
      fc.property(fc.oneof(fc.constantFrom<string>(...ELECTRON_PERMISSIONS), fc.string()), fc.webUrl(), (permission, url) => {
        expect(isPermissionAllowed(permission, url, PORTAL)).toBe(false);
        expect(isPermissionAllowed(permission, PORTAL, PORTAL)).toBe(false);
      }),
    );
  });

  it('grants an allow-listed name only to the portal origin, and nothing else', () => {
    const allowList: { permission: KioskPermission; reason: string }[] = [{ permission: 'geolocation', reason: 'test' }];
    for (const permission of ELECTRON_PERMISSIONS) {
      expect(isPermissionAllowed(permission, `${PORTAL}/check-in`, PORTAL, allowList)).toBe(permission === 'geolocation');
    }
    expect(isPermissionAllowed('geolocation', 'https://evil.com/', PORTAL, allowList)).toBe(false);
    expect(isPermissionAllowed('media', 'https://evil.com/', PORTAL, allowList)).toBe(false);
    expect(isPermissionAllowed('media', 'https://portal.example.com.evil.com/', PORTAL, allowList)).toBe(false);
    expect(isPermissionAllowed('media', '', PORTAL, allowList)).toBe(false);
  });
});
