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
  const request = (permission: RequestPermission, requestingUrl = `${PORTAL}/kiosk`) => {
    const answers: boolean[] = [];
    requestHandler({}, permission, (granted) => answers.push(granted), { requestingUrl });
    return answers;
  };
  return { request, checkHandler, deviceHandler, log };
}

describe('permission allow-list', () => {
  it('is empty: the portal needs no browser permission yet', () => {
    expect(PERMISSION_ALLOW_LIST).toEqual([]);
  });

  it('lists every Electron permission name exactly once', () => {
    expect(new Set(ELECTRON_PERMISSIONS).size).toBe(ELECTRON_PERMISSIONS.length);
  });
});

describe('installPermissionHandlers', () => {
  it.each(ELECTRON_PERMISSIONS)('denies %s by request, check and from the portal itself', (permission) => {
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
  });

  it('answers every request exactly once and logs the denial', () => {
    const { request, log } = setUp();
    expect(request('media')).toEqual([false]);
    expect(log.text()).toContain('[permissions] denied request for media');
  });

  it('denies WebHID, WebSerial and WebUSB devices', () => {
    const { deviceHandler } = setUp();
    for (const deviceType of ['hid', 'serial', 'usb'] as const) {
      expect(deviceHandler({ deviceType, origin: PORTAL })).toBe(false);
    }
  });
});

describe('isPermissionAllowed', () => {
  it('denies any string, listed or not, with the real (empty) allow-list', () => {
    fc.assert(
      fc.property(fc.oneof(fc.constantFrom<string>(...ELECTRON_PERMISSIONS), fc.string()), fc.webUrl(), (permission, url) => {
        expect(isPermissionAllowed(permission, url, PORTAL)).toBe(false);
        expect(isPermissionAllowed(permission, PORTAL, PORTAL)).toBe(false);
      }),
    );
  });

  it('grants an allow-listed name only to the portal origin, and nothing else', () => {
    const allowList: { permission: KioskPermission; reason: string }[] = [{ permission: 'media', reason: 'test' }];
    for (const permission of ELECTRON_PERMISSIONS) {
      expect(isPermissionAllowed(permission, `${PORTAL}/check-in`, PORTAL, allowList)).toBe(permission === 'media');
    }
    expect(isPermissionAllowed('media', 'https://evil.com/', PORTAL, allowList)).toBe(false);
    expect(isPermissionAllowed('media', 'https://portal.example.com.evil.com/', PORTAL, allowList)).toBe(false);
    expect(isPermissionAllowed('media', '', PORTAL, allowList)).toBe(false);
  });
});
