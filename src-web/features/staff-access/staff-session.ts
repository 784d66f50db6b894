import { createStaffAccessApi } from './staff-access-api';
import { ApiError, type ApiClient } from '../../api/client';
import { SignInError, type StaffTokenSource, type TokenSourceLoader } from '../../platform/staff-token-source';
import { isSameOriginAuthority } from './redirect-path';
import {
  REDIRECT_MARKER,
  SIGNED_IN_MARKER,
  SIGNED_OUT_MARKER,
  readMarker,
  writeMarker,
  type StaffSessionActions,
  type StaffSignInProblem,
  type StaffStore,
} from '../../stores/staff-store';

/**
 * What signing in and out does (docs/identity.md#the-browser), loaded with the first sign-in,
 * sign-out or returning staff member so the booking home carries none of it. The store keeps the
 * state the navigation shows; this gets tokens (MSAL, through the token source), hands them to
 * the server, and records the outcome in the store.
 */
export function createStaffSession(
  store: StaffStore,
  deps: { client: ApiClient; win: Window; loadTokenSource?: TokenSourceLoader },
): StaffSessionActions {
  // MSAL is one more chunk, loaded on the first sign-in or sign-out only (a returning staff member needs none).
  const loadTokenSource: TokenSourceLoader =
    deps.loadTokenSource ??
    (async (settings) =>
      // The demo provider inside the portal speaks http, which MSAL refuses: a plain OpenID client then.
      isSameOriginAuthority(settings.authority)
        ? (await import('./oidc-token-source')).createOidcTokenSource(settings, deps.win)
        : (await import('./msal-token-source')).createMsalTokenSource(settings, deps.win));
  const api = createStaffAccessApi(deps.client);
  const local = storageOf(deps.win, 'localStorage');
  const session = storageOf(deps.win, 'sessionStorage');
  let source: Promise<StaffTokenSource> | null = null;
  const signedOut = (): boolean => readMarker(local, SIGNED_OUT_MARKER) !== null;

  const tokenSource = (): Promise<StaffTokenSource> => {
    const settings = store.settings;
    if (settings === null) return Promise.reject(new Error('staff sign-in is not configured'));
    if (source === null) {
      source = loadTokenSource(settings);
      source.catch(() => (source = null));
    }
    return source;
  };

  /** Gets a token one way, hands it to the server, and records the outcome. */
  const run = async (getToken: (source: StaffTokenSource) => Promise<string | null>): Promise<boolean> => {
    store.update({ busy: true, problem: null });
    try {
      const token = await getToken(await tokenSource());
      if (token === null) return false;
      store.update({ user: await api.openSession(token) });
      writeMarker(local, SIGNED_IN_MARKER, '1');
      writeMarker(local, SIGNED_OUT_MARKER, null);
      return true;
    } catch (error) {
      store.update({ user: null, problem: problemOf(error) });
      return false;
    } finally {
      store.update({ busy: false });
    }
  };

  return {
    preload: () => void tokenSource().catch(() => undefined),

    async restore() {
      if (store.settings !== null && readMarker(session, REDIRECT_MARKER) !== null) {
        writeMarker(session, REDIRECT_MARKER, null);
        await run((tokens) => tokens.finishRedirect());
        return;
      }
      try {
        store.update({ user: await api.me() });
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) store.forget();
      }
    },

    signInSilently: (options) => run((tokens) => tokens.silent({ frame: options.frame && !signedOut() })),

    signIn: () =>
      run(async (tokens) => {
        const silent = await tokens.silent({ frame: false });
        if (silent !== null) return silent;
        // The page leaves for the identity provider before loginRedirect settles: mark first.
        const token = await tokens.interactive({
          beforeRedirect: () => writeMarker(session, REDIRECT_MARKER, '1'),
          forceLogin: signedOut(),
        });
        return token === 'redirecting' ? null : token;
      }),

    async signOut() {
      store.update({ busy: true, problem: null });
      try {
        await api.logout().catch(() => undefined);
        if (store.settings !== null) await (await tokenSource()).clear();
      } finally {
        writeMarker(local, SIGNED_OUT_MARKER, '1');
        store.forget();
        store.update({ busy: false });
      }
    },
  };
}

function storageOf(win: Window, name: 'localStorage' | 'sessionStorage'): Storage | null {
  try {
    return win[name];
  } catch {
    return null;
  }
}

function problemOf(error: unknown): StaffSignInProblem {
  if (error instanceof SignInError) return error.failure === 'cancelled' ? 'cancelled' : 'unavailable';
  if (error instanceof ApiError) {
    if (error.status === 403) return 'no_role';
    if (error.status === 401 || error.status === 400) return 'refused';
  }
  return 'unavailable';
}
