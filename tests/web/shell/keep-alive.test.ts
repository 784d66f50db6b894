import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_KEEP_ALIVE_SECONDS, startKeepAlive } from '../../../src-web/shell/keep-alive-timer';

// The keep-alive timer (docs/rules/patient-access.md#keep-alive): every interval while the page is
// visible, paused while hidden, at once when it comes back overdue, and never after stop.

describe('startKeepAlive', () => {
  let visibility: DocumentVisibilityState = 'visible';
  const win = {
    setInterval: (handler: () => void, ms: number) => setInterval(handler, ms) as unknown as number,
    clearInterval: (id: number) => clearInterval(id),
    addEventListener: window.addEventListener.bind(window),
    removeEventListener: window.removeEventListener.bind(window),
    document: {
      get visibilityState() {
        return visibility;
      },
    },
  } as Parameters<typeof startKeepAlive>[0]['win'];
  const setVisibility = (value: DocumentVisibilityState) => {
    visibility = value;
    window.dispatchEvent(new Event('visibilitychange'));
  };

  beforeEach(() => {
    vi.useFakeTimers();
    visibility = 'visible';
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const start = (ping: () => Promise<void>) =>
    startKeepAlive({ intervalMs: DEFAULT_KEEP_ALIVE_SECONDS * 1000, ping, win, now: () => Date.now() });

  it('pings every 600 s while the page is visible, not before', async () => {
    const ping = vi.fn(() => Promise.resolve());
    const stop = start(ping);
    await vi.advanceTimersByTimeAsync(599_000);
    expect(ping).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(ping).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1_800_000);
    expect(ping).toHaveBeenCalledTimes(4);
    stop();
    await vi.advanceTimersByTimeAsync(6_000_000);
    expect(ping).toHaveBeenCalledTimes(4);
  });

  it('pauses while the tab is hidden and pings at once when it comes back overdue', async () => {
    const ping = vi.fn(() => Promise.resolve());
    const stop = start(ping);
    await vi.advanceTimersByTimeAsync(300_000);
    setVisibility('hidden');
    await vi.advanceTimersByTimeAsync(3_600_000);
    expect(ping, 'nothing while hidden').not.toHaveBeenCalled();
    setVisibility('visible');
    expect(ping, 'overdue: at once').toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(600_000);
    expect(ping).toHaveBeenCalledTimes(2);
    stop();
  });

  it('does not ping on coming back when the last ping is recent, and never starts in a hidden tab', async () => {
    const ping = vi.fn(() => Promise.resolve());
    visibility = 'hidden';
    const stop = start(ping);
    await vi.advanceTimersByTimeAsync(1_200_000);
    expect(ping).not.toHaveBeenCalled();
    setVisibility('visible');
    expect(ping).toHaveBeenCalledTimes(1);
    setVisibility('hidden');
    setVisibility('visible');
    expect(ping, 'pinged a moment ago').toHaveBeenCalledTimes(1);
    stop();
  });

  it('keeps going after a failed ping', async () => {
    const ping = vi.fn(() => Promise.reject(new Error('offline')));
    const stop = start(ping);
    await vi.advanceTimersByTimeAsync(1_200_000);
    expect(ping).toHaveBeenCalledTimes(2);
    stop();
  });
});
