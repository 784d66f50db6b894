import { describe, expect, it } from 'vitest';
import {
  crashPolicy,
  crashPolicyOnSuccess,
  INITIAL_CRASH_STATE,
  installCrashRecovery,
  type CrashDecision,
  type CrashState,
  type WindowFailure,
} from '../../src-main/crash-recovery';
import { FakeTimers, FakeWebContents, MemoryLog } from './helpers/fake-electron';

const T0 = 1_000_000;
const START = 'https://portal.example.com/kiosk?kioskMode=true';
const OFFLINE = '/opt/kiosk/resources/app.asar/resources/kiosk/offline.html';

/** Runs failures through the policy at the given times and returns each decision. */
function run(steps: [number, WindowFailure][], initial: CrashState = INITIAL_CRASH_STATE): CrashDecision[] {
  let state = initial;
  return steps.map(([at, failure]) => {
    const result = crashPolicy(state, failure, at);
    state = result.state;
    return result.decision;
  });
}

const gone = (reason: 'crashed' | 'oom' | 'killed' | 'clean-exit' | 'launch-failed' = 'crashed'): WindowFailure => ({
  kind: 'render-process-gone',
  reason,
});
const failLoad = (errorCode = -102, isMainFrame = true): WindowFailure => ({ kind: 'did-fail-load', errorCode, isMainFrame });

describe('crashPolicy', () => {
  it.each<[string, WindowFailure, CrashDecision]>([
    ['renderer crashed', gone('crashed'), { action: 'reload-start' }],
    ['renderer out of memory', gone('oom'), { action: 'reload-start' }],
    ['renderer killed', gone('killed'), { action: 'reload-start' }],
    ['renderer exited', gone('clean-exit'), { action: 'reload-start' }],
    ['renderer failed to launch', gone('launch-failed'), { action: 'reload-start' }],
    ['renderer hung', { kind: 'unresponsive' }, { action: 'kill-renderer' }],
    ['portal unreachable', failLoad(-102), { action: 'reload-start' }],
    ['DNS failure', failLoad(-105), { action: 'reload-start' }],
    ['navigation aborted', failLoad(-3), { action: 'ignore', why: 'navigation aborted' }],
    ['an iframe failed', failLoad(-102, false), { action: 'ignore', why: 'subframe load failure' }],
    ['GPU process crashed', { kind: 'child-process-gone', processType: 'GPU', reason: 'crashed' }, { action: 'reload-start' }],
  ])('first failure: %s', (_name, failure, decision) => {
    expect(run([[T0, failure]])).toEqual([decision]);
  });

  it('shows the offline page at the third failure within 60 s', () => {
    expect(
      run([
        [T0, gone()],
        [T0 + 10_000, failLoad()],
        [T0 + 59_999, gone('oom')],
      ]),
    ).toEqual([{ action: 'reload-start' }, { action: 'reload-start' }, { action: 'show-offline', retryInMs: 5_000 }]);
  });

  it('forgets failures older than 60 s', () => {
    expect(
      run([
        [T0, gone()],
        [T0 + 30_000, gone()],
        [T0 + 60_000, gone()],
        [T0 + 89_999, gone()],
      ]),
    ).toEqual([
      { action: 'reload-start' },
      { action: 'reload-start' },
      { action: 'reload-start' },
      { action: 'show-offline', retryInMs: 5_000 },
    ]);
  });

  it('does not count ignored events or hangs (the hang is counted by the crash that follows)', () => {
    expect(
      run([
        [T0, failLoad(-3)],
        [T0 + 1, { kind: 'unresponsive' }],
        [T0 + 2, failLoad(-102, false)],
        [T0 + 3, gone()],
        [T0 + 4, gone('killed')],
      ]),
    ).toEqual([
      { action: 'ignore', why: 'navigation aborted' },
      { action: 'kill-renderer' },
      { action: 'ignore', why: 'subframe load failure' },
      { action: 'reload-start' },
      { action: 'reload-start' },
    ]);
  });

  it('backs off exponentially while offline, even when the retries are more than 60 s apart, up to 5 minutes', () => {
    const steps: [number, WindowFailure][] = [
      [T0, failLoad()],
      [T0 + 1, failLoad()],
      [T0 + 2, failLoad()],
    ];
    let at = T0 + 2;
    for (const delay of [5_000, 10_000, 20_000, 40_000, 80_000, 160_000, 300_000]) {
      at += delay;
      steps.push([at, failLoad()]);
    }
    const retries = run(steps).flatMap((decision) => (decision.action === 'show-offline' ? [decision.retryInMs] : []));
    expect(retries).toEqual([5_000, 10_000, 20_000, 40_000, 80_000, 160_000, 300_000, 300_000]);
  });

  it('after the portal loads again, the next failure reloads at once, and the window still remembers recent failures', () => {
    let state = INITIAL_CRASH_STATE;
    for (const at of [T0, T0 + 1, T0 + 2, T0 + 5_002]) state = crashPolicy(state, failLoad(), at).state;
    expect(state.offlineStreak).toBe(2);
    state = crashPolicyOnSuccess(state);
    expect(state.offlineStreak).toBe(0);
    // Still three failures in the last minute: a crash right after recovery goes offline again, backoff restarted.
    expect(crashPolicy(state, gone(), T0 + 6_000).decision).toEqual({ action: 'show-offline', retryInMs: 5_000 });
    // Two minutes later the slate is clean.
    expect(crashPolicy(state, gone(), T0 + 120_000).decision).toEqual({ action: 'reload-start' });
  });
});

/** Crash recovery on a fake window and timers; `loadHome` replaces loading the start page. */
const setUp = (loadHome?: () => Promise<void>) => {
  const contents = new FakeWebContents();
  const timers = new FakeTimers();
  const log = new MemoryLog();
  const recovery = installCrashRecovery({
    contents,
    startUrl: START,
    allowedOrigin: 'https://portal.example.com',
    offlinePagePath: OFFLINE,
    timers,
    log,
    ...(loadHome ? { loadHome } : {}),
  });
  return { contents, timers, log, recovery };
};

describe('installCrashRecovery', () => {
  it('loads the START page (not a reload of the current one) when the renderer crashes', () => {
    const { contents } = setUp();
    contents.currentUrl = 'https://portal.example.com/appointments/KEY/result';
    contents.emitRenderProcessGone('crashed');
    expect(contents.loads).toEqual([{ kind: 'url', target: START }]);
  });

  it('kills a hung renderer, then reloads the start page when it is gone', () => {
    const { contents } = setUp();
    contents.emitUnresponsive();
    expect(contents.crashRendererCalls).toBe(1);
    expect(contents.loads).toEqual([]);
    contents.emitRenderProcessGone('killed');
    expect(contents.loads).toEqual([{ kind: 'url', target: START }]);
  });

  it('ignores a failed iframe and an aborted navigation', () => {
    const { contents } = setUp();
    contents.emitDidFailLoad(-102, 'https://maps.example.net/', false);
    contents.emitDidFailLoad(-3, START, true);
    expect(contents.loads).toEqual([]);
  });

  it('after three failures shows the offline page and retries the start page with backoff', () => {
    const { contents, timers, recovery } = setUp();
    contents.emitDidFailLoad(-102, START);
    contents.emitDidFailLoad(-102, START);
    contents.emitDidFailLoad(-102, START);
    expect(contents.loads).toEqual([
      { kind: 'url', target: START },
      { kind: 'url', target: START },
      { kind: 'file', target: OFFLINE },
    ]);
    expect(timers.pendingDelays()).toEqual([5_000]);

    timers.advance(4_999);
    expect(contents.loads).toHaveLength(3);
    timers.advance(1);
    expect(contents.loads.at(-1)).toEqual({ kind: 'url', target: START });

    // The retry fails too: offline again, next retry in 10 s.
    contents.emitDidFailLoad(-102, START);
    expect(contents.loads.at(-1)).toEqual({ kind: 'file', target: OFFLINE });
    expect(timers.pendingDelays()).toEqual([10_000]);

    // The offline page finishing its load is not a recovery.
    contents.emitDidFinishLoad();
    expect(recovery.state().offlineStreak).toBe(2);

    timers.advance(10_000);
    contents.emitDidFinishLoad();
    expect(recovery.state().offlineStreak).toBe(0);
  });

  it('keeps a single pending retry when failures pile up', () => {
    const { contents, timers } = setUp();
    for (let i = 0; i < 5; i += 1) contents.emitRenderProcessGone('crashed');
    expect(timers.pendingDelays()).toEqual([20_000]);
  });

  it('feeds failures reported from elsewhere (child-process-gone) through the same policy', () => {
    const { contents, recovery } = setUp();
    recovery.onFailure({ kind: 'child-process-gone', processType: 'GPU', reason: 'crashed' });
    expect(contents.loads).toEqual([{ kind: 'url', target: START }]);
  });

  it('does nothing once the window is destroyed', () => {
    const { contents } = setUp();
    contents.destroyed = true;
    contents.emitRenderProcessGone('crashed');
    expect(contents.loads).toEqual([]);
  });

  it('catches the rejected loadURL of a failed reload instead of leaving an unhandled rejection', async () => {
    const { contents, log } = setUp();
    contents.failNextLoads = new Error('ERR_CONNECTION_REFUSED (-102)');
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      contents.emitRenderProcessGone('crashed');
      await new Promise((resolve) => setTimeout(resolve, 10));
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
    expect(unhandled).toEqual([]);
    expect(log.text()).toContain('[crash-recovery] start page did not load: ERR_CONNECTION_REFUSED (-102)');
  });
});

describe('installCrashRecovery: what the heartbeat reports', () => {
  it('records the last crash with its time and reason, but not a failed load', () => {
    const { contents, timers, recovery } = setUp();
    expect(recovery.lastCrash()).toBeNull();
    contents.emitRenderProcessGone('oom');
    const crashedAt = timers.now();
    timers.advance(1_000);
    contents.emitDidFailLoad(-102, START);
    expect(recovery.lastCrash()).toEqual({ at: crashedAt, reason: 'renderer gone: oom' });
    timers.advance(1_000);
    recovery.onFailure({ kind: 'child-process-gone', processType: 'GPU', reason: 'crashed' });
    expect(recovery.lastCrash()).toEqual({ at: crashedAt + 2_000, reason: 'GPU process gone: crashed' });
  });

  it('records when the offline page was last shown (three failures in a minute)', () => {
    const { contents, timers, recovery } = setUp();
    contents.emitRenderProcessGone('crashed');
    contents.emitRenderProcessGone('crashed');
    expect(recovery.lastOfflineAt()).toBeNull();
    timers.advance(5_000);
    contents.emitRenderProcessGone('crashed');
    expect(recovery.lastOfflineAt()).toBe(timers.now());
    expect(contents.loads.at(-1)).toEqual({ kind: 'file', target: OFFLINE });
  });

  it('loads what the kiosk calls home (e.g. an enrollment screen) instead of the portal', () => {
    const homes: string[] = [];
    const { contents } = setUp(() => {
      homes.push('enrollment screen');
      return Promise.resolve();
    });
    contents.emitRenderProcessGone('crashed');
    expect(homes).toEqual(['enrollment screen']);
    expect(contents.loads).toEqual([]);
  });
});
