import type { IdentityProtocolMode } from '@contract/api/config';

/**
 * What the staff store needs from the identity provider's browser library. The real one is MSAL
 * (src-web/features/staff-access/msal-token-source.ts), loaded only when someone signs in; the store never imports it.
 */

/** The application config's identity* fields, once the server named a provider. */
export interface IdentitySettings {
  clientId: string;
  authority: string;
  scope: string;
  protocolMode: IdentityProtocolMode;
}

/** Why a sign-in did not produce a token (the page picks the message). */
export type SignInFailure = 'cancelled' | 'failed';

export class SignInError extends Error {
  override readonly name = 'SignInError';

  constructor(
    readonly failure: SignInFailure,
    message: string,
  ) {
    super(message);
  }
}

export interface StaffTokenSource {
  /** The access token of a sign-in that came back from a full-page redirect; null when there was none. */
  finishRedirect(): Promise<string | null>;
  /**
   * A token without showing anything: the cached account's token (renewed with its refresh
   * token), else the provider's own session in a hidden frame when `frame` is true. Null when the
   * person has to sign in.
   */
  silent(options: { frame: boolean }): Promise<string | null>;
  /**
   * Signs in in a popup. When the browser blocks popups the sign-in continues as a full-page
   * redirect: `beforeRedirect` runs first (the page may leave before this promise settles), and
   * this answers 'redirecting'. `forceLogin` makes the provider ask for the credentials even when
   * its own session is alive (after a logout on a shared computer). Throws SignInError.
   */
  interactive(options: { beforeRedirect: () => void; forceLogin: boolean }): Promise<string | 'redirecting'>;
  /** Forgets every account and token this browser holds for the portal. */
  clear(): Promise<void>;
}

/** Loads the token source's code (a chunk of its own) for these settings. */
export type TokenSourceLoader = (settings: IdentitySettings) => Promise<StaffTokenSource>;
