import { ErrorResponse, UserManager, WebStorageStateStore, type User, type UserManagerSettings } from 'oidc-client-ts';
import { SignInError, type IdentitySettings, type StaffTokenSource } from '../../platform/staff-token-source';
import { REDIRECT_PATH } from './redirect-path';

/**
 * The staff token source for the local demo identity provider inside the portal (authority /dev/idp,
 * docs/identity.md#the-browser): oidc-client-ts, an OpenID Connect client for browsers that, unlike
 * MSAL, accepts an http authority, so the portal opened as http://localhost or http://127.0.0.1
 * signs in with no certificate to accept. Authorization code with PKCE, tokens in local storage,
 * the popup first and a full-page redirect when the popup is blocked. Loaded only for that provider.
 */

/** Where a sign-in that went by full-page redirect came from, to go back there (auth-redirect.html). */
export interface RedirectState {
  returnTo: string;
}

const POPUP_BLOCKED = 'Attempted to navigate on a disposed window';
const POPUP_CLOSED = /^Popup closed/;

/** The settings both the portal page and the redirect bridge build their client with. */
export function oidcClientSettings(settings: Pick<IdentitySettings, 'clientId' | 'authority' | 'scope'>, win: Window): UserManagerSettings {
  const origin = win.location.origin;
  const store = new WebStorageStateStore({ store: win.localStorage });
  return {
    // A site path (/dev/idp) is the provider on the page's own origin, whatever host name it was opened with.
    authority: new URL(settings.authority, origin).href.replace(/\/$/, ''),
    client_id: settings.clientId,
    redirect_uri: `${origin}${REDIRECT_PATH}`,
    popup_redirect_uri: `${origin}${REDIRECT_PATH}`,
    post_logout_redirect_uri: `${origin}/`,
    response_type: 'code',
    scope: `openid profile offline_access ${settings.scope}`,
    userStore: store,
    stateStore: store,
    loadUserInfo: false,
    automaticSilentRenew: false,
  };
}

export function createOidcTokenSource(settings: IdentitySettings, win: Window = window): StaffTokenSource {
  const manager = new UserManager(oidcClientSettings(settings, win));
  const usable = (user: User | null): string | null => (user !== null && !user.expired ? user.access_token : null);

  return {
    // The bridge page (redirect-bridge.ts) finished the code exchange and stored the person.
    async finishRedirect() {
      return usable(await manager.getUser());
    },

    async silent() {
      const user = await manager.getUser();
      const token = usable(user);
      if (token !== null) return token;
      if (user?.refresh_token === undefined) return null;
      try {
        // With a refresh token oidc-client-ts renews with it, no frame involved.
        return usable(await manager.signinSilent());
      } catch {
        await manager.removeUser();
        return null;
      }
    },

    async interactive({ beforeRedirect, forceLogin }) {
      const prompt = forceLogin ? { prompt: 'login' } : {};
      try {
        // A closed popup ends the sign-in (cancelled) instead of leaving it waiting.
        const user = await manager.signinPopup({ ...prompt, popupAbortOnClose: true });
        return user.access_token;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        if (message === POPUP_BLOCKED) {
          beforeRedirect();
          const state: RedirectState = { returnTo: win.location.href };
          await manager.signinRedirect({ ...prompt, state });
          return 'redirecting';
        }
        if (POPUP_CLOSED.test(message) || (error instanceof ErrorResponse && error.error === 'access_denied')) {
          throw new SignInError('cancelled', 'The sign-in window was closed.');
        }
        throw new SignInError('failed', message);
      }
    },

    async clear() {
      await manager.removeUser();
      await manager.clearStaleState();
    },
  };
}
