import { makeAutoObservable } from 'mobx';
import type { AppConfig } from '@contract/api/config';
import type { StaffRole, StaffUser } from '@contract/api/staff-access';
import type { IdentitySettings } from '../platform/staff-token-source';

/**
 * The signed-in staff member, referring doctor or IT administrator (docs/rules/staff-access.md,
 * docs/identity.md#the-browser): the state the navigation shows. What signing in and out does is
 * a chunk of its own (src-web/features/staff-access/staff-session.ts, with MSAL behind it), loaded
 * on the first sign-in, sign-out, or a returning staff member, so the booking home carries none of it.
 */

/** Set while this browser believes it holds a staff session; never a credential. */
export const SIGNED_IN_MARKER = 'portal.staffSignedIn';
/**
 * Set by a logout until the next sign-in: the identity provider's own session outlives the
 * portal's, so the next sign-in asks for the credentials (the next person at a shared computer
 * is not signed in as the last one) and no hidden frame signs anyone in.
 */
export const SIGNED_OUT_MARKER = 'portal.staffSignedOut';
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

/** What signing in and out does (staff-session.ts); each result lands in the store. */
export interface StaffSessionActions {
  preload(): void;
  /** A returning staff member's session, or the end of a full-page redirect sign-in. */
  restore(): Promise<void>;
  signInSilently(options: { frame: boolean }): Promise<boolean>;
  signIn(): Promise<boolean>;
  signOut(): Promise<void>;
}

export interface StaffStoreDeps {
  app: () => AppConfig;
  loadActions: (store: StaffStore) => Promise<StaffSessionActions>;
  /** window.localStorage / sessionStorage; null where storage is blocked. */
  localStorage: Storage | null;
  sessionStorage: Storage | null;
}

export function readMarker(storage: Storage | null, key: string): string | null {
  try {
    return storage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

/** Sets or (null) removes a marker; storage that refuses is ignored, the server session decides. */
export function writeMarker(storage: Storage | null, key: string, value: string | null): void {
  try {
    if (value === null) storage?.removeItem(key);
    else storage?.setItem(key, value);
  } catch {
    // Storage blocked: the marker is only a hint.
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
  private loading: Promise<StaffSessionActions> | null = null;

  constructor(deps: StaffStoreDeps) {
    this.deps = deps;
    makeAutoObservable<this, 'deps' | 'loading'>(this, { deps: false, loading: false });
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

  hasAnyRole(roles: readonly StaffRole[]): boolean {
    return this.user !== null && this.user.roles.some((role) => roles.includes(role));
  }

  /** Starts loading the sign-in code (e.g. when the pointer reaches the login button), so a click opens the popup at once. */
  preload(): void {
    void this.actions().then(
      (actions) => actions.preload(),
      () => undefined,
    );
  }

  /** At start: nothing at all for a browser that never signed in (no marker). */
  async restore(): Promise<void> {
    const redirected = readMarker(this.deps.sessionStorage, REDIRECT_MARKER) !== null;
    if (!redirected && readMarker(this.deps.localStorage, SIGNED_IN_MARKER) === null) return;
    await (await this.actions()).restore();
  }

  /**
   * Signs in without showing anything when the provider allows (a cached account, or the
   * provider's own session in a hidden frame when `frame`). False when the person must act.
   */
  async signInSilently(options: { frame: boolean }): Promise<boolean> {
    this.problemShownIn = 'page';
    return (await this.actions()).signInSilently(options);
  }

  /**
   * Signs in: silently when a cached account allows, else in a popup, else (popup blocked) by a
   * full-page redirect that comes back to this page. True once the server opened the session.
   */
  async signIn(options: { from?: 'navigation' | 'page' } = {}): Promise<boolean> {
    this.problemShownIn = options.from ?? 'page';
    return (await this.actions()).signIn();
  }

  /** Ends the server session and forgets MSAL's accounts and tokens in this browser. */
  async signOut(): Promise<void> {
    await (await this.actions()).signOut();
  }

  /** What staff-session.ts reports: a sign-in began or ended, who is signed in, what went wrong. */
  update(change: Partial<Pick<StaffStore, 'user' | 'busy' | 'problem'>>): void {
    Object.assign(this, change);
  }

  /** The server no longer knows this staff session (a 401, a logout): forget it here too. */
  forget(): void {
    this.user = null;
    writeMarker(this.deps.localStorage, SIGNED_IN_MARKER, null);
  }

  private actions(): Promise<StaffSessionActions> {
    if (this.loading === null) {
      this.loading = this.deps.loadActions(this);
      this.loading.catch(() => (this.loading = null));
    }
    return this.loading;
  }
}
