import { AuthError, createStandardPublicClientApplication, type AccountInfo, type AuthenticationResult } from '@azure/msal-browser';
import { SignInError, type IdentitySettings, type StaffTokenSource } from '../../platform/staff-token-source';
import { REDIRECT_PATH } from './redirect-path';

/**
 * MSAL (@azure/msal-browser) as the staff token source (docs/identity.md#the-browser): its cache
 * in local storage, the redirect URI the bridge page answers
 * (src-web/auth-redirect.html at /auth/redirect), and for a provider other than Entra ID the
 * OIDC protocol mode with the authority's host as a known authority.
 */

/** The sign-in could not open a window (blocked popup): go by full-page redirect instead. */
const POPUP_BLOCKED = new Set(['popup_window_error', 'empty_window_error']);
const CANCELLED = new Set(['user_cancelled', 'access_denied']);

export { REDIRECT_PATH };

function hostOf(url: string): string {
  return new URL(url).host;
}

export async function createMsalTokenSource(settings: IdentitySettings, win: Window = window): Promise<StaffTokenSource> {
  const origin = win.location.origin;
  const oidc = settings.protocolMode === 'OIDC';
  const app = await createStandardPublicClientApplication({
    auth: {
      clientId: settings.clientId,
      authority: settings.authority,
      redirectUri: `${origin}${REDIRECT_PATH}`,
      postLogoutRedirectUri: `${origin}/`,
      ...(oidc ? { knownAuthorities: [hostOf(settings.authority)] } : {}),
    },
    cache: { cacheLocation: 'localStorage' },
    system: { protocolMode: settings.protocolMode },
  });
  const scopes = [settings.scope];

  const remember = (result: AuthenticationResult): string => {
    app.setActiveAccount(result.account);
    return result.accessToken;
  };
  const account = (): AccountInfo | null => app.getActiveAccount() ?? app.getAllAccounts()[0] ?? null;

  return {
    async finishRedirect() {
      const result = await app.handleRedirectPromise();
      return result === null ? null : remember(result);
    },

    async silent({ frame }) {
      const cached = account();
      if (cached !== null) {
        try {
          return remember(await app.acquireTokenSilent({ scopes, account: cached }));
        } catch (error) {
          // Expired refresh token, no token for the scope, provider unreachable: try the next way.
          if (!(error instanceof AuthError)) throw error;
        }
      }
      if (!frame) return null;
      try {
        return remember(await app.ssoSilent({ scopes }));
      } catch {
        // No session at the provider, or its cookies are not sent to a hidden frame: sign in visibly.
        return null;
      }
    },

    async interactive({ beforeRedirect, forceLogin }) {
      const request = forceLogin ? { scopes, prompt: 'login' } : { scopes };
      try {
        return remember(await app.loginPopup(request));
      } catch (error) {
        const code = error instanceof AuthError ? error.errorCode : '';
        if (POPUP_BLOCKED.has(code)) {
          beforeRedirect();
          await app.loginRedirect(request);
          return 'redirecting';
        }
        if (CANCELLED.has(code)) throw new SignInError('cancelled', 'The sign-in window was closed.');
        throw new SignInError('failed', error instanceof Error ? error.message : String(error));
      }
    },

    async clear() {
      await app.clearCache();
      app.setActiveAccount(null);
    },
  };
}
