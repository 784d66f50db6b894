import { describe, expect, it } from 'vitest';
import { KIOSK_CHANNELS } from '@contract/kiosk-bridge';
import { registerKioskIpc, senderProblem, type KioskIpcDeps } from '../../src-main/ipc';
import { FakeIpcMain, invokeEvent, MemoryLog, testIpcDeps } from './helpers/fake-electron';

const PORTAL = 'https://portal.example.com';
const portalMainFrame = { url: `${PORTAL}/kiosk?kioskMode=true`, isMainFrame: true };

function setUp(appInfo = () => ({ version: '1.2.3', platform: 'linux' }), overrides: Partial<KioskIpcDeps> = {}) {
  const ipcMain = new FakeIpcMain();
  const log = new MemoryLog();
  const calls: string[] = [];
  registerKioskIpc(
    { ipcMain },
    testIpcDeps({
      allowedOrigin: PORTAL,
      appInfo,
      log,
      endPatientSession: () => {
        calls.push('endPatientSession');
        return Promise.resolve();
      },
      reportPatientActivity: () => {
        calls.push('reportPatientActivity');
      },
      ...overrides,
    }),
  );
  return { ipcMain, log, calls };
}

const CHANNELS = Object.values(KIOSK_CHANNELS);
const WRONG_SENDERS = [
  ['an iframe on the portal', { url: `${PORTAL}/iframe/about`, isMainFrame: false }],
  ['a foreign main frame', { url: 'https://evil.com/', isMainFrame: true }],
  ['the enrollment page', { url: 'file:///opt/kiosk/resources/kiosk/enrollment.html?reason=enroll-again', isMainFrame: true }],
  ['a frame that is gone', null],
] as const;

describe('registerKioskIpc', () => {
  it('registers exactly one handler per KIOSK_CHANNELS entry', () => {
    const { ipcMain } = setUp();
    expect([...ipcMain.handlers.keys()].sort()).toEqual(Object.values(KIOSK_CHANNELS).sort());
  });

  it('answers the portal main frame with the app info in the ok envelope', async () => {
    const { ipcMain } = setUp();
    await expect(ipcMain.invoke(KIOSK_CHANNELS.getAppInfo, portalMainFrame)).resolves.toEqual({
      ok: true,
      value: { version: '1.2.3', platform: 'linux' },
    });
  });

  it.each([
    ['an iframe on the portal', { url: `${PORTAL}/iframe/about`, isMainFrame: false }],
    ['a foreign main frame', { url: 'https://evil.com/', isMainFrame: true }],
    ['a look-alike origin', { url: 'https://portal.example.com.evil.com/', isMainFrame: true }],
    ['the offline page', { url: 'file:///opt/kiosk/resources/kiosk/offline.html', isMainFrame: true }],
    ['a frame that is gone', null],
  ])('refuses %s with a forbidden envelope', async (_name, sender) => {
    const { ipcMain, log } = setUp();
    await expect(ipcMain.invoke(KIOSK_CHANNELS.getAppInfo, sender)).resolves.toEqual({
      ok: false,
      error: { code: 'forbidden', message: 'This caller may not use the kiosk bridge.' },
    });
    expect(log.text()).toContain(`[ipc] ${KIOSK_CHANNELS.getAppInfo} refused`);
  });

  it('refuses unexpected arguments', async () => {
    const { ipcMain } = setUp();
    await expect(ipcMain.invoke(KIOSK_CHANNELS.getAppInfo, portalMainFrame, { sneaky: true })).resolves.toEqual({
      ok: false,
      error: { code: 'validation_failed', message: 'Invalid arguments for the kiosk bridge.' },
    });
  });

  it('turns a failing handler into an internal_error envelope and logs the cause', async () => {
    const { ipcMain, log } = setUp(() => {
      throw new Error('version file unreadable');
    });
    await expect(ipcMain.invoke(KIOSK_CHANNELS.getAppInfo, portalMainFrame)).resolves.toEqual({
      ok: false,
      error: { code: 'internal_error', message: 'The kiosk could not complete the request.' },
    });
    expect(log.lines).toContainEqual(expect.objectContaining({ level: 'error', error: new Error('version file unreadable') }));
  });

  it('never sends a value that breaks the contract schema', async () => {
    const { ipcMain } = setUp(() => ({ version: '1.2.3', platform: 'linux', secret: 'x' }));
    const reply = await ipcMain.invoke(KIOSK_CHANNELS.getAppInfo, portalMainFrame);
    expect(reply).toEqual({ ok: true, value: { version: '1.2.3', platform: 'linux' } });
  });
});

describe('registerKioskIpc: every bridge call', () => {
  const cases = CHANNELS.flatMap((channel) => WRONG_SENDERS.map(([name, sender]) => [channel, name, sender] as const));
  it.each(cases)('%s refuses %s and does nothing', async (channel, _name, sender) => {
    const { ipcMain, calls } = setUp();
    await expect(ipcMain.invoke(channel, sender)).resolves.toEqual({
      ok: false,
      error: { code: 'forbidden', message: 'This caller may not use the kiosk bridge.' },
    });
    expect(calls).toEqual([]);
  });

  it.each(
    CHANNELS.flatMap(
      (channel) =>
        [
          [channel, ['x']],
          [channel, [{ token: true }]],
          [channel, [undefined]],
        ] as const,
    ),
  )('%s refuses the arguments %j and does nothing', async (channel, args) => {
    const { ipcMain, calls } = setUp();
    await expect(ipcMain.invoke(channel, portalMainFrame, ...args)).resolves.toEqual({
      ok: false,
      error: { code: 'validation_failed', message: 'Invalid arguments for the kiosk bridge.' },
    });
    expect(calls).toEqual([]);
  });

  it('answers the identity without the token, and the idle time in whole seconds', async () => {
    const { ipcMain } = setUp(undefined, { systemIdleSeconds: () => 41.7 });
    await expect(ipcMain.invoke(KIOSK_CHANNELS.getKioskIdentity, portalMainFrame)).resolves.toEqual({
      ok: true,
      value: { name: 'Lobby 1', clinicSlug: 'parramatta', clinicName: 'Parramatta', enrolled: true },
    });
    await expect(ipcMain.invoke(KIOSK_CHANNELS.getSystemIdleSeconds, portalMainFrame)).resolves.toEqual({ ok: true, value: 41 });
  });

  it('refuses to hand out an identity that carries extra fields such as a token', async () => {
    const { ipcMain } = setUp(undefined, {
      identity: () => ({ name: 'x', clinicSlug: null, clinicName: null, enrolled: true, token: 'secret' }) as never,
    });
    await expect(ipcMain.invoke(KIOSK_CHANNELS.getKioskIdentity, portalMainFrame)).resolves.toMatchObject({
      ok: false,
      error: { code: 'internal_error' },
    });
  });

  it('runs endPatientSession and reportPatientActivity for the portal main frame', async () => {
    const { ipcMain, calls } = setUp();
    await expect(ipcMain.invoke(KIOSK_CHANNELS.endPatientSession, portalMainFrame)).resolves.toEqual({ ok: true, value: null });
    await expect(ipcMain.invoke(KIOSK_CHANNELS.reportPatientActivity, portalMainFrame)).resolves.toEqual({ ok: true, value: null });
    expect(calls).toEqual(['endPatientSession', 'reportPatientActivity']);
  });
});

describe('senderProblem', () => {
  it('names why a sender is refused, and null for the portal main frame', () => {
    expect(senderProblem(invokeEvent(portalMainFrame), PORTAL)).toBeNull();
    expect(senderProblem(invokeEvent(null), PORTAL)).toBe('sender frame is gone');
    expect(senderProblem(invokeEvent({ url: `${PORTAL}/x`, isMainFrame: false }), PORTAL)).toBe('sender is not the main frame');
    expect(senderProblem(invokeEvent({ url: 'https://evil.com/a?bookingKey=K', isMainFrame: true }), PORTAL)).toBe(
      'sender origin https://evil.com is not the portal',
    );
  });
});
