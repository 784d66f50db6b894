import { HEARTBEAT_SECONDS, KioskHeartbeatSchema, type KioskHeartbeat } from '@contract/api/kiosks';
import type { LastCrash, Timers } from './crash-recovery';
import type { KioskFetch } from './enrollment';
import { isKioskNotEnrolled, KIOSK_API_PREFIX, kioskAuthorization } from './kiosk-auth';
import type { KioskLog } from './kiosk-log';

export const HEARTBEAT_MS = HEARTBEAT_SECONDS * 1_000;

/** What the heartbeat reads at each beat; every time is epoch ms, and none is a patient's data. */
export interface HeartbeatSources {
  appVersion: string;
  /** When this process started. */
  startedAt: number;
  lastCrash(): LastCrash | null;
  lastPatientActivityAt(): number | null;
  lastOfflineAt(): number | null;
}

const iso = (time: number | null) => (time === null ? null : new Date(time).toISOString());

/** The KioskHeartbeatSchema body at `now`; parsed, so a bad field fails here and not on the server. */
export function buildHeartbeat(sources: HeartbeatSources, now: number): KioskHeartbeat {
  const crash = sources.lastCrash();
  return KioskHeartbeatSchema.parse({
    appVersion: sources.appVersion.slice(0, 40),
    uptimeSeconds: Math.max(0, Math.floor((now - sources.startedAt) / 1_000)),
    lastCrash: crash ? { at: iso(crash.at), reason: crash.reason.slice(0, 200) } : null,
    lastPatientActivityAt: iso(sources.lastPatientActivityAt()),
    lastOfflineAt: iso(sources.lastOfflineAt()),
  });
}

export type HeartbeatOutcome = 'sent' | 'not-enrolled' | 'failed' | 'skipped';

export interface HeartbeatOptions<Handle> {
  fetch: KioskFetch;
  portalUrl: string;
  credential: { token(): string | null; revoked(): void };
  sources: HeartbeatSources;
  timers: Timers<Handle>;
  log: KioskLog;
}

export interface Heartbeat {
  /** Sends one beat now (also what the timer calls); never throws. */
  beat(): Promise<HeartbeatOutcome>;
  stop(): void;
}

/**
 * POSTs the heartbeat to /api/kiosk/heartbeat every {@link HEARTBEAT_MS} with the kiosk token,
 * from main (the page is not involved). Failures are logged, never thrown; a
 * kiosk_not_enrolled answer is the revocation path (enroll-again screen).
 */
export function installHeartbeat<Handle>(options: HeartbeatOptions<Handle>): Heartbeat {
  const { timers, log, credential } = options;
  let timer: Handle | null = null;
  let stopped = false;
  // One line per kind of failure until a beat succeeds again, so an outage does not flood the log.
  let lastFailure: string | null = null;

  const fail = (what: string): HeartbeatOutcome => {
    if (what !== lastFailure) log.warn(`[heartbeat] not delivered: ${what}`);
    lastFailure = what;
    return 'failed';
  };

  const beat = async (): Promise<HeartbeatOutcome> => {
    const token = credential.token();
    if (!token) return 'skipped';
    try {
      const body = buildHeartbeat(options.sources, timers.now());
      const response = await options.fetch(`${options.portalUrl}${KIOSK_API_PREFIX}heartbeat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: kioskAuthorization(token) },
        body: JSON.stringify(body),
      });
      if (await isKioskNotEnrolled(response)) {
        if (credential.token() === token) credential.revoked();
        return 'not-enrolled';
      }
      if (!response.ok) return fail(`status ${response.status}`);
      if (lastFailure !== null) log.info('[heartbeat] delivered again');
      lastFailure = null;
      return 'sent';
    } catch (error) {
      return fail(error instanceof Error ? error.message : String(error));
    }
  };

  const schedule = () => {
    timer = timers.setTimeout(() => {
      timer = null;
      if (stopped) return;
      void beat().finally(() => {
        if (!stopped) schedule();
      });
    }, HEARTBEAT_MS);
  };
  schedule();

  return {
    beat,
    stop() {
      stopped = true;
      if (timer !== null) timers.clearTimeout(timer);
      timer = null;
    },
  };
}
