import type { KioskIdentity } from '@contract/api/kiosks';
import type { Timers } from './crash-recovery';
import { RETRY_BASE_MS, RETRY_MAX_MS } from './crash-recovery';
import type { KioskWebContents } from './electron-surface';
import { ensureEnrollment, type EnrollmentDeps, type EnrollmentScreen, type EnrollmentState } from './enrollment';
import type { KioskLog } from './kiosk-log';

export interface KioskCredential {
  /** The live kiosk token, for main's own requests and the header it adds; never for the page. */
  token(): string | null;
  identity(): KioskIdentity | null;
  /** A local enrollment screen is showing: crash recovery must not replace it with the portal. */
  blocked(): boolean;
  /** Enrolls (or reads the stored token) and shows the portal or the matching local screen. */
  start(): Promise<EnrollmentState>;
  /** The portal said the token is dead (401 kiosk_not_enrolled): forget it, ask staff. */
  revoked(): void;
  /** What crash recovery loads: the kiosk home, or the enrollment screen while one must stay. */
  loadHome(): Promise<void>;
}

export interface KioskCredentialOptions<Handle> {
  enrollment: EnrollmentDeps;
  contents: KioskWebContents;
  startUrl: string;
  /** Absolute paths of resources/kiosk/enrollment.html and offline.html. */
  enrollmentPagePath: string;
  offlinePagePath: string;
  timers: Timers<Handle>;
  log: KioskLog;
}

/** Loads the local screen that tells staff why the kiosk cannot serve patients, with its name when known. */
export function showEnrollmentScreen(
  contents: KioskWebContents,
  pagePath: string,
  screen: EnrollmentScreen,
  name: string | null,
): Promise<void> {
  const query: Record<string, string> = { reason: screen };
  if (name) query.kiosk = name;
  return contents.loadFile(pagePath, { query });
}

/**
 * The kiosk's credential for the life of the process: the enrollment at start (retried with
 * back-off while the portal is unreachable, the code kept), and the revocation path.
 */
export function createKioskCredential<Handle>(options: KioskCredentialOptions<Handle>): KioskCredential {
  const { contents, log, timers } = options;
  const store = options.enrollment.store;
  let token: string | null = null;
  let identity: KioskIdentity | null = null;
  let screen: EnrollmentScreen | null = null;
  let attempts = 0;

  const show = (which: EnrollmentScreen) => {
    screen = which;
    showEnrollmentScreen(contents, options.enrollmentPagePath, which, identity?.name ?? null).catch((error: unknown) =>
      log.error('[enrollment] the enrollment screen did not load', error),
    );
  };

  const start = async (): Promise<EnrollmentState> => {
    const state = await ensureEnrollment(options.enrollment);
    switch (state.state) {
      case 'enrolled':
      case 'not-enrolled':
        token = state.state === 'enrolled' ? state.token : null;
        identity = state.identity;
        screen = null;
        attempts = 0;
        contents.loadURL(options.startUrl).catch((error: unknown) => log.warn(`[startup] start page did not load: ${String(error)}`));
        break;
      case 'blocked':
        identity = state.identity;
        show(state.screen);
        break;
      case 'unreachable': {
        attempts += 1;
        const delay = Math.min(RETRY_BASE_MS * 2 ** (attempts - 1), RETRY_MAX_MS);
        contents.loadFile(options.offlinePagePath).catch((error: unknown) => log.error('[enrollment] offline page did not load', error));
        timers.setTimeout(() => void start(), delay);
        break;
      }
    }
    return state;
  };

  return {
    loadHome: () =>
      screen === null
        ? contents.loadURL(options.startUrl)
        : showEnrollmentScreen(contents, options.enrollmentPagePath, screen, identity?.name ?? null),
    token: () => token,
    identity: () => identity,
    blocked: () => screen !== null,
    start,
    revoked() {
      if (screen === 'enroll-again') return;
      log.error('[enrollment] the portal no longer accepts this kiosk (kiosk_not_enrolled); the stored token is deleted');
      token = null;
      store.deleteToken();
      show('enroll-again');
    },
  };
}
