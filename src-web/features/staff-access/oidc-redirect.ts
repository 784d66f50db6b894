import { UserManager } from 'oidc-client-ts';
import type { PendingOidcSignIn } from './oidc-pending';
import { oidcClientSettings, type RedirectState } from './oidc-token-source';

/**
 * The answer of the local demo provider (oidc-token-source.ts) arriving at /auth/redirect: in a
 * popup it is handed to the portal page that opened it; after a full-page redirect the code is
 * exchanged here and the browser goes back to the page the sign-in started on, where the staff
 * session picks the stored person up.
 */

/** Finishes the sign-in; resolves to where the browser should go next, or null (a popup, which closes). */
export async function finishOidcSignIn(win: Window, pending: PendingOidcSignIn): Promise<string | null> {
  // The scope as the portal asked for it, so the settings match the stored sign-in's.
  const apiScope = pending.scope
    .split(' ')
    .filter((scope) => !['openid', 'profile', 'offline_access'].includes(scope))
    .join(' ');
  const manager = new UserManager(oidcClientSettings({ authority: pending.authority, clientId: pending.client_id, scope: apiScope }, win));
  const user = await manager.signinCallback(win.location.href);
  if (user === undefined) return null;
  const state = user.state as Partial<RedirectState> | undefined;
  const back = typeof state?.returnTo === 'string' ? new URL(state.returnTo, win.location.origin) : null;
  // Only back into the portal itself.
  return back !== null && back.origin === win.location.origin ? back.href : '/';
}
