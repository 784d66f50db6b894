/**
 * Whether the answer at /auth/redirect belongs to a sign-in oidc-client-ts began (the local demo
 * provider, oidc-token-source.ts): it keeps each sign-in in local storage under `oidc.<state>`.
 * No library code here, so the redirect bridge of an MSAL sign-in loads none of oidc-client-ts.
 */

export interface PendingOidcSignIn {
  authority: string;
  client_id: string;
  scope: string;
}

const PREFIX = 'oidc.';

/** The sign-in this answer belongs to, as oidc-client-ts stored it when the sign-in began; null when none. */
export function pendingOidcSignIn(win: Window): PendingOidcSignIn | null {
  const state = new URLSearchParams(win.location.search).get('state');
  if (state === null || !/^[A-Za-z0-9_-]{1,128}$/.test(state)) return null;
  try {
    const stored = win.localStorage.getItem(`${PREFIX}${state}`);
    if (stored === null) return null;
    const parsed = JSON.parse(stored) as Record<string, unknown>;
    const { authority, client_id: clientId, scope } = parsed;
    return typeof authority === 'string' && typeof clientId === 'string' && typeof scope === 'string'
      ? { authority, client_id: clientId, scope }
      : null;
  } catch {
    return null;
  }
}
