import type { Cookie } from '../../src-main/electron-surface';
import { describe, expect, it } from 'vitest';
import { cookieUrl, endPatientSession, KIOSK_KEPT_COOKIES, WIPED_STORAGES } from '../../src-main/session-wipe';
import { FakeWebContents, MemoryLog } from './helpers/fake-electron';

const START = 'https://portal.example.com/kiosk?kioskMode=true';

function cookie(name: string, domain = 'portal.example.com', extra: Partial<Cookie> = {}): Cookie {
  return { name, value: `${name}-value`, domain, path: '/', secure: true, httpOnly: false, session: false, sameSite: 'lax', ...extra };
}

describe('endPatientSession', () => {
  it('removes every cookie except the kiosk own ones, clears site data, then loads the kiosk home without history', async () => {
    const contents = new FakeWebContents();
    contents.currentUrl = 'https://portal.example.com/appointments/KEY';
    contents.session.cookies.jar = [
      cookie('__Host-portal_kiosk', 'portal.example.com', { httpOnly: true }),
      cookie('kioskIdentity'),
      cookie('patientKioskIdentity'),
      cookie('postalCodeLocationId'),
      cookie('__Host-portal_session', 'portal.example.com', { httpOnly: true }),
      cookie('analytics', '.example.com'),
    ];
    await endPatientSession(contents, START, new MemoryLog());
    await new Promise((resolve) => setTimeout(resolve, 0));

    expect(contents.session.cookies.jar.map((kept) => kept.name).sort()).toEqual([...KIOSK_KEPT_COOKIES].sort());
    expect(contents.session.clears).toEqual([
      { call: 'clearStorageData', options: { storages: [...WIPED_STORAGES] } },
      { call: 'clearAuthCache' },
      { call: 'clearCache' },
    ]);
    expect(WIPED_STORAGES).toEqual(expect.arrayContaining(['localstorage', 'indexdb', 'cachestorage', 'serviceworkers']));
    expect(WIPED_STORAGES).not.toContain('cookies');
    expect(contents.scripts).toEqual(['window.sessionStorage.clear()']);
    expect(contents.loads).toEqual([{ kind: 'url', target: START }]);
    expect(contents.historyCleared).toBe(1);
  });

  it('still clears the history when the kiosk home fails to load', async () => {
    const contents = new FakeWebContents();
    contents.failNextLoads = new Error('ERR_CONNECTION_REFUSED');
    const log = new MemoryLog();
    await endPatientSession(contents, START, log);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(contents.historyCleared).toBe(1);
    expect(log.text()).toContain('[session-wipe] kiosk home did not load');
  });

  it('builds the removal URL from the cookie scheme, host and path', () => {
    expect(cookieUrl({ domain: '.example.com', path: '/a', secure: true })).toBe('https://example.com/a');
    expect(cookieUrl({ domain: 'localhost', path: '/', secure: false })).toBe('http://localhost/');
  });
});
