import { describe, expect, it } from 'vitest';
import { KIOSK_EVENTS } from '@contract/kiosk-bridge';
import { ACTIVITY_THROTTLE_MS, IDLE_PUSH_MS, installIdleMonitor } from '../../src-main/idle-monitor';
import { FakePowerMonitor, FakeTimers, FakeWebContents } from './helpers/fake-electron';

const PORTAL = 'https://portal.example.com';

function setUp(url = `${PORTAL}/kiosk?kioskMode=true`) {
  const powerMonitor = new FakePowerMonitor();
  const contents = new FakeWebContents();
  contents.currentUrl = url;
  const timers = new FakeTimers();
  const idle = installIdleMonitor({ powerMonitor, contents, allowedOrigin: PORTAL, timers });
  return { powerMonitor, contents, timers, idle };
}

describe('installIdleMonitor', () => {
  it('pushes the hardware idle time to the portal page every few seconds', () => {
    const { powerMonitor, contents, timers } = setUp();
    powerMonitor.idleSeconds = 7;
    timers.advance(IDLE_PUSH_MS);
    powerMonitor.idleSeconds = 12;
    timers.advance(IDLE_PUSH_MS);
    expect(contents.sent).toEqual([
      { channel: KIOSK_EVENTS.idleChange, args: [{ idleSeconds: 7, reason: 'tick' }] },
      { channel: KIOSK_EVENTS.idleChange, args: [{ idleSeconds: 12, reason: 'tick' }] },
    ]);
  });

  it.each(['lock-screen', 'unlock-screen', 'suspend', 'resume'] as const)('pushes at once on %s', (event) => {
    const { powerMonitor, contents } = setUp();
    powerMonitor.idleSeconds = 3;
    powerMonitor.emit(event);
    expect(contents.sent).toEqual([{ channel: KIOSK_EVENTS.idleChange, args: [{ idleSeconds: 3, reason: event }] }]);
  });

  it.each([
    ['the offline page', 'file:///opt/kiosk/resources/kiosk/offline.html'],
    ['another origin', 'https://evil.com/'],
  ])('pushes nothing to %s', (_name, url) => {
    const { powerMonitor, contents, timers } = setUp(url);
    timers.advance(IDLE_PUSH_MS * 3);
    powerMonitor.emit('suspend');
    expect(contents.sent).toEqual([]);
  });

  it('stops pushing when stopped', () => {
    const { contents, timers, idle } = setUp();
    idle.stop();
    timers.advance(IDLE_PUSH_MS * 3);
    expect(contents.sent).toEqual([]);
  });

  it('keeps the time of patient activity only, throttled', () => {
    const { timers, idle } = setUp();
    expect(idle.lastPatientActivityAt()).toBeNull();
    const first = timers.now();
    idle.reportPatientActivity();
    timers.advance(ACTIVITY_THROTTLE_MS - 1);
    idle.reportPatientActivity();
    expect(idle.lastPatientActivityAt()).toBe(first);
    timers.advance(1);
    idle.reportPatientActivity();
    expect(idle.lastPatientActivityAt()).toBe(first + ACTIVITY_THROTTLE_MS);
  });
});
