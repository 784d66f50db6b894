import { isIP } from 'node:net';
import { PORTAL_REDIRECT_PATHS } from './portal-client';

/**
 * The origins the portal may be opened with, besides PUBLIC_URL's (docs/identity.md#local-identity-provider):
 * a newcomer opens http://127.0.0.1:3000 where PUBLIC_URL says localhost, or the machine's address
 * from a phone on the same network. The demo provider inside the portal accepts each of them as a
 * redirect origin: the same scheme and port as the portal, on a loopback name or an IP address.
 * Host names other than localhost are never accepted: only an address the person typed can be one.
 */
export function portalOriginPolicy(portalOrigin: string): (origin: string) => boolean {
  const portal = new URL(portalOrigin);
  return (origin: string): boolean => {
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      return false;
    }
    if (url.origin !== origin || url.protocol !== portal.protocol || url.port !== portal.port) return false;
    const host = url.hostname.replace(/^\[|\]$/g, '');
    return host === 'localhost' || isIP(host) !== 0;
  };
}

/** A redirect URI of the portal's sign-in pages on an allowed origin. */
export function portalRedirectAllowed(
  allowed: (origin: string) => boolean,
  value: string,
  paths: readonly string[] = PORTAL_REDIRECT_PATHS,
): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return allowed(url.origin) && paths.includes(url.pathname) && url.search === '' && url.hash === '';
}
