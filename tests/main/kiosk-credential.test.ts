import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RETRY_BASE_MS } from '../../src-main/crash-recovery';
import { createKioskCredential } from '../../src-main/kiosk-credential';
import { createTokenStore } from '../../src-main/kiosk-token-store';
import { FakeSafeStorage, FakeTimers, FakeWebContents, MemoryLog } from './helpers/fake-electron';

const START = 'https://portal.example.com/kiosk?kioskMode=true';
const ENROLLMENT_PAGE = '/opt/kiosk/resources/kiosk/enrollment.html';
const OFFLINE_PAGE = '/opt/kiosk/resources/kiosk/offline.html';

function setUp(fetch: (url: string) => Promise<Response>, options: { backend?: string; code?: string | null } = {}) {
  const safeStorage = new FakeSafeStorage();
  if (options.backend) safeStorage.backend = options.backend;
  const store = createTokenStore({ safeStorage, platform: 'linux', directory: mkdtempSync(path.join(tmpdir(), 'kiosk-cred-')) });
  const contents = new FakeWebContents();
  const timers = new FakeTimers();
  const credential = createKioskCredential({
    enrollment: {
      fetch,
      portalUrl: 'https://portal.example.com',
      enrollmentCode: options.code === undefined ? '7KQ3-M9XD' : options.code,
      provisioningPath: null,
      store,
      safeStorage,
      platform: 'linux',
      log: new MemoryLog(),
    },
    contents,
    startUrl: START,
    enrollmentPagePath: ENROLLMENT_PAGE,
    offlinePagePath: OFFLINE_PAGE,
    timers,
    log: new MemoryLog(),
  });
  return { credential, contents, timers, store };
}

const enrolledAnswer = () =>
  Promise.resolve(
    new Response(JSON.stringify({ name: 'Lobby 1', clinicSlug: null, clinicName: null }), {
      status: 200,
      headers: [['set-cookie', '__Host-portal_kiosk=tok-0123456789abcdefghij; Path=/; HttpOnly; Secure']],
    }),
  );

describe('createKioskCredential', () => {
  it('loads the start page once enrolled, and holds the token for main only', async () => {
    const { credential, contents } = setUp(enrolledAnswer);
    await credential.start();
    expect(contents.loads).toEqual([{ kind: 'url', target: START }]);
    expect(credential.token()).toBe('tok-0123456789abcdefghij');
    expect(credential.blocked()).toBe(false);
  });

  it('shows the insecure-storage screen instead of the portal on basic_text', async () => {
    const { credential, contents } = setUp(enrolledAnswer, { backend: 'basic_text' });
    await credential.start();
    expect(contents.loads).toEqual([{ kind: 'file', target: ENROLLMENT_PAGE, query: { reason: 'insecure-storage' } }]);
    expect(credential.blocked()).toBe(true);
  });

  it('shows the code-rejected screen for a refused code', async () => {
    const { credential, contents } = setUp(() => Promise.resolve(new Response('{}', { status: 400 })));
    await credential.start();
    expect(contents.loads).toEqual([{ kind: 'file', target: ENROLLMENT_PAGE, query: { reason: 'code-rejected' } }]);
  });

  it('shows the offline page and tries the code again with back-off while the portal is unreachable', async () => {
    let calls = 0;
    const { credential, contents, timers } = setUp(() => (++calls < 3 ? Promise.reject(new Error('ECONNREFUSED')) : enrolledAnswer()));
    await credential.start();
    expect(contents.loads).toEqual([{ kind: 'file', target: OFFLINE_PAGE }]);
    expect(timers.pendingDelays()).toEqual([RETRY_BASE_MS]);
    timers.advance(RETRY_BASE_MS);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(timers.pendingDelays()).toEqual([2 * RETRY_BASE_MS]);
    timers.advance(2 * RETRY_BASE_MS);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(contents.loads.at(-1)).toEqual({ kind: 'url', target: START });
    expect(credential.token()).not.toBeNull();
  });

  it('forgets the token and shows enroll-again with the kiosk name when revoked', async () => {
    const { credential, contents, store } = setUp(enrolledAnswer);
    await credential.start();
    credential.revoked();
    expect(credential.token()).toBeNull();
    expect(store.readToken()).toBeNull();
    expect(contents.loads.at(-1)).toEqual({ kind: 'file', target: ENROLLMENT_PAGE, query: { reason: 'enroll-again', kiosk: 'Lobby 1' } });
    credential.revoked();
    expect(contents.loads).toHaveLength(2);
  });
});
