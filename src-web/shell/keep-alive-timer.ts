import type { ApiClient } from '../api/client';
import type { FeatureStoreFactory, RootStore } from '../stores/root-store';
import { createKeepAliveApi } from '../api/keep-alive-api';

/**
 * The keep-alive ping (spec "an optional keep-alive ping", docs/rules/patient-access.md#keep-alive):
 * while a signed-in page is open and visible, the session is pinged every keepAliveIntervalSeconds
 * (default 600), so the server's 30-minute idle timeout does not end it while its page is open.
 * The 12-hour maximum still ends it.
 *
 * It pauses while the tab is hidden: a forgotten background tab on a shared computer must not keep
 * a session alive for 12 hours; the idle timeout protects exactly that case. Back in view, it pings
 * at once when a ping is due, then every interval again.
 */

export interface KeepAliveTimerOptions {
  intervalMs: number;
  ping: () => Promise<void>;
  win: Pick<Window, 'setInterval' | 'clearInterval' | 'addEventListener' | 'removeEventListener'> & {
    document: Pick<Document, 'visibilityState'>;
  };
  now: () => number;
}

/** Starts pinging; answers the stop. A failed ping is left to the client's 401 rule (or tried at the next interval). */
export function startKeepAlive({ intervalMs, ping, win, now }: KeepAliveTimerOptions): () => void {
  let timer: number | undefined;
  let lastPing = now();
  const send = () => {
    lastPing = now();
    ping().catch(() => undefined);
  };
  const run = () => {
    if (timer !== undefined) return;
    if (now() - lastPing >= intervalMs) send();
    timer = win.setInterval(send, intervalMs);
  };
  const pause = () => {
    if (timer !== undefined) win.clearInterval(timer);
    timer = undefined;
  };
  const onVisibility = () => (win.document.visibilityState === 'hidden' ? pause() : run());
  win.addEventListener('visibilitychange', onVisibility);
  if (win.document.visibilityState !== 'hidden') run();
  return () => {
    pause();
    win.removeEventListener('visibilitychange', onVisibility);
  };
}

export const DEFAULT_KEEP_ALIVE_SECONDS = 600;

const clientOf: FeatureStoreFactory<ApiClient> = ({ client }) => client;

/** Starts the pings of the sessions signed in at each ping (patient, staff) through the app's client; answers the stop. */
export function keepAlive(root: RootStore): () => void {
  const api = createKeepAliveApi(root.featureStore(clientOf));
  return startKeepAlive({
    intervalMs: (root.config.app.keepAliveIntervalSeconds || DEFAULT_KEEP_ALIVE_SECONDS) * 1000,
    ping: async () => {
      await Promise.all([root.session.isAuthenticated ? api.patient() : null, root.staff.user !== null ? api.staff() : null]);
    },
    win: window,
    now: () => Date.now(),
  });
}
