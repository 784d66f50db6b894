/**
 * The session cookie the app writes when the patient closes the provider's banner: the server's
 * first paint of the next page (src-server/platform/first-paint.ts) then leaves the banner out,
 * as the app will. No expiry: it ends with the browser session.
 */
export const BANNER_CLOSED_COOKIE = 'portal_banner_closed';

/** Whether a Cookie header (or document.cookie) says the banner was closed. */
export function bannerClosedIn(cookie: string | undefined): boolean {
  return (cookie ?? '').split(';').some((pair) => pair.trim() === `${BANNER_CLOSED_COOKIE}=1`);
}
