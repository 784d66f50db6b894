import { broadcastResponseToMainFrame } from '@azure/msal-browser/redirect-bridge';
import { pendingOidcSignIn, type PendingOidcSignIn } from './oidc-pending';

/**
 * The page the identity provider sends the browser back to (<portal>/auth/redirect, served from
 * auth-redirect.html; docs/identity.md#the-browser). MSAL 5 wants a page that only hands the
 * answer over: to the window that opened the popup or the hidden frame (a BroadcastChannel), or,
 * after a full-page redirect, back to the page the sign-in started on. Nothing of the portal
 * loads here, so the answer is passed on at once. A sign-in with the local demo provider
 * (oidc-client-ts, oidc-token-source.ts) is finished by that library instead.
 */

/** How long the popup may stay open after handing the answer over before it says so. */
const CLOSE_GRACE_MS = 1000;

/** MSAL's answer (the portal's own identity provider through MSAL). */
function handOverMsalAnswer(): void {
  broadcastResponseToMainFrame().then(
    // The popup closes itself; a browser that does not let it (the window lost its opener on the
    // way through the provider) leaves it open, so it says the sign-in is done.
    () => window.setTimeout(showDone, CLOSE_GRACE_MS),
    // No sign-in answer in the address (opened by hand, or already used): go to the portal.
    () => window.location.replace('/'),
  );
}

/** The local demo provider's answer (oidc-client-ts; its code loads only for it). */
async function handOverOidcAnswer(pending: PendingOidcSignIn): Promise<void> {
  const { finishOidcSignIn } = await import('./oidc-redirect');
  try {
    const next = await finishOidcSignIn(window, pending);
    if (next !== null) window.location.replace(next);
    else window.setTimeout(showDone, CLOSE_GRACE_MS);
  } catch {
    window.location.replace('/');
  }
}

function showDone(): void {
  const done = document.getElementById('signed-in');
  if (done) done.hidden = false;
}

// Which client began the sign-in: oidc-client-ts keeps its sign-in under the answer's state.
const pendingOidc = pendingOidcSignIn(window);
if (pendingOidc === null) handOverMsalAnswer();
else void handOverOidcAnswer(pendingOidc);
