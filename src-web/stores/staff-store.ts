import { makeAutoObservable, runInAction } from 'mobx';
import type { AppConfig } from '@contract/api/config';
import type { StaffRole, StaffUser } from '@contract/api/staff-access';
import { ApiError } from '../api/client';
import type { StaffAccessApi } from '../api/staff-access-api';
import type { IdentitySettings, StaffTokenSource, TokenSourceLoader } from '../platform/staff-token-source';
import { SignInError } from '../platform/staff-token-source';

/**
 * The signed-in staff member, referring doctor or IT administrator (docs/rules/staff-access.md).
 * The identity provider's library (MSAL) loads only when someone signs in or out, so the booking
 * home carries none of it: a returning browser is recognised by a marker in local storage and
 * one GET /api/staff-access/me.
 */

/** Set while this browser believes it holds a staff session; never a credential. */
export const SIGNED_IN_MARKER = 'portal.staffSignedIn';
/** Set while a sign-in continues as a full-page redirect (the popup was blocked). */
export const REDIRECT_MARKER = 'portal.staffSignInRedirect';

/** Why the last sign-in did not succeed; the page shows the matching message. */
export type StaffSignInProblem =
  /** The person closed the sign-in window. */
  | 'cancelled'
  /** The portal refused the token (expired, tampered, wrong provider). */
  | 'refused'
  /** Signed in, but the account has no portal role. */
  | 'no_role'
  /** The provider or the portal could not be reached. */
  | 'unavailable';

export interface StaffStoreDeps {
  api: StaffAccessApi;
  app: () => AppConfig;
  loadTokenSource: TokenSourceLoader;
  /** window.localStorage / sessionStorage; null where storage is blocked. */
  localStorage: Storage | null;
  sessionStorage: Storage | null;
}

function read(storage: Storage | null, key: string): string | null {
  try {
    return storage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

function write(storage: Storage | null, key: string, value: string | null): void {
  try {
    if (value === null) storage?.removeItem(key);
    else storage?.setItem(key, value);
  } catch {
    // Storage blocked: the marker is only a hint, the server session decides.
  }
}

export class StaffStore {
  user: StaffUser | null = null;
  /** A sign-in or sign-out is under way. */
  busy = false;
  problem: StaffSignInProblem | null = null;
  /** Where the sign-in that met the problem started, so only that place reports it. */
  problemShownIn: 'navigation' | 'page' = 'page';

  private readonly deps: StaffStoreDeps;
  private source: Promise<StaffTokenSource> | null = null;

  constructor(deps: StaffStoreDeps) {
    this.deps = deps;
    makeAutoObservable<this, 'deps' | 'source'>(this, { deps: false, source: false });
  }

  /** The identity provider the server named; null when staff sign-in is off. */
  get settings(): IdentitySettings | null {
    const app = this.deps.app();
    if (!app.identityClientId || !app.identityAuthority || !app.identityScope) return null;
    return {
      clientId: app.identityClientId,
      authority: app.identityAuthority,
      scope: app.identityScope,
      protocolMode: app.identityProtocolMode,
    };
  }

  get signedIn(): boolean {
    return this.user !== null;
  }

  hasAnyRole(roles: readonly StaffRole[]): boolean {
    return this.user !== null && this.user.roles.some((role) => roles.includes(role));
  }

  /** Starts loading MSAL's code (e.g. when the pointer reaches the login button), so a click opens the popup at once. */
  preload(): void {
    void this.tokenSource().catch(() => undefined);
  }

  /**
   * At start: finishes a sign-in that came back from a full-page redirect, else asks the server
   * whether the staff session this browser had is still alive. Nothing at all for a browser that
   * never signed in.
   */
  async restore(): Promise<void> {
    if (this.settings !== null && read(this.deps.sessionStorage, REDIRECT_MARKER) !== null) {
      write(this.deps.sessionStorage, REDIRECT_MARKER, null);
      await this.run(async (source) => source.finishRedirect());
      return;
    }
    if (read(this.deps.localStorage, SIGNED_IN_MARKER) === null) return;
    try {
      const user = await this.deps.api.me();
      runInAction(() => (this.user = user));
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) this.forget();
    }
  }

  /**
   * Signs in without showing anything when the provider allows (a cached account, or the
   * provider's own session in a hidden frame when `frame`). False when the person must act.
   */
  async signInSilently(options: { frame: boolean }): Promise<boolean> {
    this.problemShownIn = 'page';
    return this.run((source) => source.silent(options));
  }

  /**
   * Signs in: silently when a cached account allows, else in a popup, else (popup blocked) by a
   * full-page redirect that comes back to this page. True once the server opened the session.
   */
  async signIn(options: { from?: 'navigation' | 'page' } = {}): Promise<boolean> {
    this.problemShownIn = options.from ?? 'page';
    return this.run(async (source) => {
      const silent = await source.silent({ frame: false });
      if (silent !== null) return silent;
      // The page leaves for the identity provider before loginRedirect settles: mark first.
      const token = await source.interactive({ beforeRedirect: () => write(this.deps.sessionStorage, REDIRECT_MARKER, '1') });
      return token === 'redirecting' ? null : token;
    });
  }

  /** Ends the server session and forgets MSAL's accounts and tokens in this browser. */
  async signOut(): Promise<void> {
    this.busy = true;
    try {
      await this.deps.api.logout().catch(() => undefined);
      if (this.settings !== null) await (await this.tokenSource()).clear();
    } finally {
      runInAction(() => {
        this.forget();
        this.busy = false;
      });
    }
  }

  /** The server no longer knows this staff session (a 401): forget it here too. */
  forget(): void {
    this.user = null;
    write(this.deps.localStorage, SIGNED_IN_MARKER, null);
  }

  private tokenSource(): Promise<StaffTokenSource> {
    const settings = this.settings;
    if (settings === null) return Promise.reject(new Error('staff sign-in is not configured'));
    if (this.source === null) {
      this.source = this.deps.loadTokenSource(settings);
      this.source.catch(() => (this.source = null));
    }
    return this.source;
  }

  /** Gets a token one way, hands it to the server, and records the outcome. */
  private async run(getToken: (source: StaffTokenSource) => Promise<string | null>): Promise<boolean> {
    this.busy = true;
    this.problem = null;
    try {
      const token = await getToken(await this.tokenSource());
      if (token === null) return false;
      const user = await this.deps.api.openSession(token);
      runInAction(() => (this.user = user));
      write(this.deps.localStorage, SIGNED_IN_MARKER, '1');
      return true;
    } catch (error) {
      runInAction(() => {
        this.user = null;
        this.problem = problemOf(error);
      });
      return false;
    } finally {
      runInAction(() => (this.busy = false));
    }
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
