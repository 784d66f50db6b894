import { broadcastResponseToMainFrame } from '@azure/msal-browser/redirect-bridge';

/**
 * The page the identity provider sends the browser back to (<portal>/auth/redirect, served from
 * auth-redirect.html; docs/identity.md#the-browser). MSAL 5 wants a page that only hands the
 * answer over: to the window that opened the popup or the hidden frame (a BroadcastChannel), or,
 * after a full-page redirect, back to the page the sign-in started on. Nothing of the portal
 * loads here, so the answer is passed on at once.
 */

/** How long the popup may stay open after handing the answer over before it says so. */
const CLOSE_GRACE_MS = 1000;

broadcastResponseToMainFrame().then(
  () => {
    // The popup closes itself; a browser that does not let it (the window lost its opener on the
    // way through the provider) leaves it open, so it says the sign-in is done.
    window.setTimeout(() => {
      const done = document.getElementById('signed-in');
      if (done) done.hidden = false;
    }, CLOSE_GRACE_MS);
  },
  () => {
    // No sign-in answer in the address (opened by hand, or already used): go to the portal.
    window.location.replace('/');
  },
);
