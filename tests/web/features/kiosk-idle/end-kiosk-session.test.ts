import { afterEach, describe, expect, it, vi } from 'vitest';
import { KIOSK_POSTCODE_COOKIE } from '../../../../src-web/features/booking/booking-locator';
import { endKioskSession, wipeBrowserState } from '../../../../src-web/features/kiosk-idle/end-kiosk-session';
import { LOGOUT_TIMEOUT_MS } from '../../../../src-web/features/kiosk-idle/kiosk-idle-constants';
import { detectKioskMode, KIOSK_COOKIES } from '../../../../src-web/platform/kiosk';

const cookieNames = () =>
  document.cookie
    .split(';')
    .map((part) => part.split('=')[0]?.trim())
    .filter(Boolean)
    .sort();

/** A patient's traces and the kiosk's own, as a kiosk browser holds them mid-session. */
function fillBrowser() {
  window.history.replaceState(null, '', '/appointments/DQZGrZ3wpC5qCgHhYxQeMw?kioskMode=true');
  expect(detectKioskMode(window)).toBe(true);
  sessionStorage.setItem('portal.bannerClosed', 'true');
  sessionStorage.setItem('draft.patient', '{"lastName":"Example"}');
  localStorage.setItem('msal.account', 'liam');
  document.cookie = 'patientNote=knee; path=/';
  document.cookie = 'deepNote=1; path=/appointments';
  for (const name of KIOSK_COOKIES) document.cookie = `${name}=kept; path=/`;
}

afterEach(() => {
  for (const name of cookieNames()) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  document.body.replaceChildren();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('wipeBrowserState', () => {
  it("should clear storage and cookies except the kiosk's own (kiosk mode stays on)", () => {
    fillBrowser();
    wipeBrowserState(window);
    expect(Object.keys(sessionStorage)).toEqual(['portal.kioskMode']);
    expect(sessionStorage.getItem('portal.kioskMode')).toBe('true');
    expect(localStorage).toHaveLength(0);
    expect(cookieNames()).toEqual([...KIOSK_COOKIES].sort());
  });

  it('should keep the postcode cookie the booking flow writes for the next patient', () => {
    expect(KIOSK_COOKIES).toContain(KIOSK_POSTCODE_COOKIE);
  });
});

describe('endKioskSession', () => {
  it('should wipe, log out, blank the page and replace it with the kiosk home', async () => {
    fillBrowser();
    document.body.innerHTML = '<main><h1>Liam Example</h1></main>';
    const calls: string[] = [];
    const logout = vi.fn(async () => {
      calls.push(`logout (storage ${localStorage.length})`);
    });
    await endKioskSession({ win: window, logout, leave: (url) => calls.push(`leave ${url} (${document.body.textContent})`) });
    expect(calls).toEqual(['logout (storage 0)', 'leave /kiosk?kioskMode=true ()']);
    expect(Object.keys(sessionStorage)).toEqual(['portal.kioskMode']);
  });

  it('should wipe and leave even when the logout fails', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    fillBrowser();
    const leave = vi.fn();
    await endKioskSession({ win: window, logout: () => Promise.reject(new Error('offline')), leave });
    expect(leave).toHaveBeenCalledWith('/kiosk?kioskMode=true');
    expect(localStorage).toHaveLength(0);
  });

  it('should wait for the logout at most LOGOUT_TIMEOUT_MS', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    vi.useFakeTimers();
    const leave = vi.fn();
    const ending = endKioskSession({ win: window, logout: () => new Promise<void>(() => undefined), leave });
    await vi.advanceTimersByTimeAsync(LOGOUT_TIMEOUT_MS - 1);
    expect(leave).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    await ending;
    expect(leave).toHaveBeenCalledOnce();
  });

  it('should leave again when the browser restores the page from the back-forward cache', async () => {
    const replace = vi.fn();
    const events = new EventTarget();
    const win = {
      sessionStorage,
      localStorage,
      document,
      isSecureContext: false,
      location: { hostname: 'localhost', pathname: '/appointments/x', replace },
      setTimeout: window.setTimeout.bind(window),
      clearTimeout: window.clearTimeout.bind(window),
      addEventListener: events.addEventListener.bind(events),
    } as unknown as Window;
    await endKioskSession({ win, logout: async () => undefined });
    expect(replace).toHaveBeenCalledTimes(1);
    events.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: false }));
    expect(replace).toHaveBeenCalledTimes(1);
    events.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true }));
    expect(replace).toHaveBeenCalledTimes(2);
    expect(replace).toHaveBeenLastCalledWith('/kiosk?kioskMode=true');
  });
});
