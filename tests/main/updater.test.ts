import { describe, expect, it } from 'vitest';
import { isHomeOrLocalScreen } from '../../src-main/kiosk-app';
import {
  CHECK_INTERVAL_MS,
  FIRST_CHECK_MS,
  INSTALL_POLL_MS,
  installKioskUpdates,
  noPatientInSession,
  UPDATE_IDLE_SECONDS,
  type PatientPresence,
} from '../../src-main/updater';
import { FakeTimers, FakeUpdater, MemoryLog } from './helpers/fake-electron';

function setUp(channel = 'stable') {
  const timers = new FakeTimers();
  const updater = new FakeUpdater();
  const log = new MemoryLog();
  const presence = { home: false, systemIdle: 0, lastActivity: null as number | null };
  const source: PatientPresence = {
    onHomeOrLocalScreen: () => presence.home,
    systemIdleSeconds: () => presence.systemIdle,
    lastPatientActivityAt: () => presence.lastActivity,
  };
  const updates = installKioskUpdates({
    updater,
    updateUrl: 'https://updates.example.com/kiosk',
    updateChannel: channel,
    presence: source,
    timers,
    log,
  });
  return { timers, updater, presence, updates, log };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('installKioskUpdates', () => {
  it('configures the generic feed from provisioning; stable is electron-builder latest channel', () => {
    expect(setUp().updater).toMatchObject({
      feed: { provider: 'generic', url: 'https://updates.example.com/kiosk', channel: 'latest' },
      autoDownload: true,
      allowDowngrade: false,
      autoInstallOnAppQuit: true,
    });
    expect(setUp('beta').updater.feed).toMatchObject({ channel: 'beta' });
  });

  it('does not check while a patient is in a session (system idle stuck at 0, page in use)', async () => {
    const { timers, updater, presence } = setUp();
    presence.lastActivity = timers.now();
    timers.advance(FIRST_CHECK_MS);
    await settle();
    for (let i = 0; i < 10; i++) {
      presence.lastActivity = timers.now();
      timers.advance(INSTALL_POLL_MS);
      await settle();
    }
    expect(updater.checks).toBe(0);
  });

  it('checks on the kiosk home, then not again before the interval', async () => {
    const { timers, updater, presence } = setUp();
    presence.home = true;
    timers.advance(FIRST_CHECK_MS);
    await settle();
    expect(updater.checks).toBe(1);
    timers.advance(INSTALL_POLL_MS);
    await settle();
    expect(updater.checks).toBe(1);
    for (let waited = 0; waited < CHECK_INTERVAL_MS; waited += INSTALL_POLL_MS) {
      timers.advance(INSTALL_POLL_MS);
      await settle();
    }
    expect(updater.checks).toBe(2);
  });

  it('installs a downloaded update only once no patient is in a session', async () => {
    const { timers, updater, presence, updates } = setUp();
    updater.emit('update-downloaded', { version: '2.0.0' });
    presence.lastActivity = timers.now();
    await updates.tick();
    expect(updater.installs).toEqual([]);
    presence.home = true;
    await updates.tick();
    expect(updater.installs).toEqual([[true, true]]);
  });

  it('logs a failed check and keeps going', async () => {
    const { updater, presence, updates, log } = setUp();
    presence.home = true;
    updater.failChecks = true;
    await expect(updates.tick()).resolves.toBeUndefined();
    updater.emit('error', new Error('signature mismatch'));
    expect(log.text()).toContain('[updater] check failed: net::ERR_NAME_NOT_RESOLVED');
    expect(log.text()).toContain('[updater] signature mismatch');
  });
});

describe('noPatientInSession', () => {
  const at = 1_000_000_000;
  const presence = (home: boolean, systemIdle: number, lastActivity: number | null): PatientPresence => ({
    onHomeOrLocalScreen: () => home,
    systemIdleSeconds: () => systemIdle,
    lastPatientActivityAt: () => lastActivity,
  });
  it.each([
    ['on the kiosk home', presence(true, 0, at), true],
    ['idle by both measures', presence(false, UPDATE_IDLE_SECONDS, at - UPDATE_IDLE_SECONDS * 1000), true],
    ['idle hardware, recent page activity', presence(false, 10_000, at - 1_000), false],
    ['hardware idle stuck at 0, no page activity ever', presence(false, 0, null), false],
    ['just under the idle time', presence(false, UPDATE_IDLE_SECONDS - 1, null), false],
  ])('%s -> %s', (_name, source, expected) => {
    expect(noPatientInSession(source, at)).toBe(expected);
  });
});

describe('isHomeOrLocalScreen', () => {
  const START = 'https://portal.example.com/kiosk?kioskMode=true';
  it.each([
    ['https://portal.example.com/kiosk?kioskMode=true', true],
    ['https://portal.example.com/kiosk', true],
    ['file:///opt/kiosk/resources/kiosk/offline.html', true],
    ['https://portal.example.com/kiosk/check-in/KEY', false],
    ['https://portal.example.com/appointments/KEY', false],
    ['https://evil.com/kiosk', false],
    ['chrome-error://chromewebdata/', false],
    ['', false],
  ])('%s -> %s', (url, expected) => {
    expect(isHomeOrLocalScreen(url, START)).toBe(expected);
  });
});
