import { broadcastResponseToMainFrame } from '@azure/msal-browser/redirect-bridge';

/**
 * The page the identity provider sends the browser back to (<portal>/auth/redirect, served from
 * auth-redirect.html; docs/identity.md#redirect-uris). MSAL 5 wants a page that only hands the
 * answer over: to the window that opened the popup or the hidden frame (a BroadcastChannel), or,
 * after a full-page redirect, back to the page the sign-in started on. Nothing of the portal
 * loads here, so the answer is passed on at once.
 */
broadcastResponseToMainFrame().catch(() => {
  // No sign-in answer in the address (opened by hand, or already used): go to the portal.
  window.location.replace('/');
});
