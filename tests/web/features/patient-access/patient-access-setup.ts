/** The stores of patient sign-in wired to a real local HTTP server (the fake sign-in API), as root-store.ts wires them. */
import { createApiClient } from '../../../../src-web/api/client';
import { createPatientAccessApi } from '../../../../src-web/api/patient-access-api';
import { PatientAccessStore } from '../../../../src-web/features/patient-access/patient-access-store';
import { PatientSignInStore, type AuthenticationParams } from '../../../../src-web/features/patient-access/patient-sign-in-store';
import { SessionStore, type PortalNavigator } from '../../../../src-web/stores/session-store';
import { startApiServer } from '../../helpers/api-server';
import { BOOKING_KEY, signInServer, type SignInServerOptions } from './patient-access-fixtures';

/** A navigator that records where the stores send the browser. */
export function recordingNavigator(start: string): PortalNavigator & { visited: { to: string; replace?: boolean }[] } {
  let current = start;
  const visited: { to: string; replace?: boolean }[] = [];
  return {
    visited,
    navigate: (to, options) => {
      visited.push({ to, replace: options?.replace });
      current = to;
    },
    currentUrl: () => current,
  };
}

/** Timers the test advances by hand, one second at a time. */
export function manualTimers() {
  const active = new Map<number, () => void>();
  let next = 1;
  return {
    setInterval: (fn: () => void) => {
      const id = next++;
      active.set(id, fn);
      return id;
    },
    clearInterval: (handle: unknown) => void active.delete(handle as number),
    tick: (seconds = 1) => {
      for (let i = 0; i < seconds; i++) for (const fn of [...active.values()]) fn();
    },
    get count() {
      return active.size;
    },
  };
}

export interface Setup {
  server?: SignInServerOptions;
  url?: string;
  cookies?: boolean;
  otpResendSeconds?: number;
}

export async function setup(options: Setup = {}) {
  const fake = signInServer(options.server);
  const server = await startApiServer(fake.routes);
  const client = createApiClient(server.url);
  const navigator = recordingNavigator(options.url ?? `/authentication?bookingKey=${BOOKING_KEY}`);
  const session = new SessionStore(() => navigator);
  client.setSessionHandlers({ logout: () => session.logout(), reauthenticate: () => session.reauthenticate() });
  const timers = manualTimers();
  const overlays: Record<string, unknown>[] = [];
  let scrolled = 0;
  const access = new PatientAccessStore({
    api: createPatientAccessApi(client),
    session,
    navigator: () => navigator,
    otpResendSeconds: () => options.otpResendSeconds ?? 5,
    today: () => '2026-11-23',
    cookiesEnabled: () => options.cookies ?? true,
    applyTranslations: (overlay) => overlays.push(overlay),
    scrollToTop: () => (scrolled += 1),
    timers,
  });
  const store = access.signIn(PatientSignInStore);
  return { fake, server, navigator, session, access, store, timers, overlays, scrolled: () => scrolled };
}

export function params(overrides: Partial<AuthenticationParams> = {}): AuthenticationParams {
  return {
    bookingKey: BOOKING_KEY,
    type: 'APPOINTMENT',
    returnUrl: `/appointments/${BOOKING_KEY}`,
    shared: false,
    staffBooking: false,
    dateOfBirth: '',
    ...overrides,
  };
}
