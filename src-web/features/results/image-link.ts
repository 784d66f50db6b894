/**
 * The signed image link (imsec, `v1.<kid>.<payload>.<tag>`, src-server/platform/signed-links) is
 * short-lived. The page reads how long it lives from its payload (iat and exp, Unix milliseconds)
 * only to know when to ask for a new one; the server alone decides whether a link is valid.
 */

/** When the payload cannot be read: ask for a new link after this long. */
export const FALLBACK_LINK_LIFETIME_MS = 60_000;
/** Ask for a new link this long before the old one ends (the request takes a moment), at most a quarter of its life. */
const MARGIN_MS = 30_000;

interface LinkClaims {
  iat: number;
  exp: number;
}

function decodeBase64Url(text: string): string {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/');
  return atob(base64.padEnd(base64.length + ((4 - (base64.length % 4)) % 4), '='));
}

function claimsOf(imsec: string): LinkClaims | null {
  const payload = imsec.split('.')[2];
  if (!payload) return null;
  try {
    const claims: unknown = JSON.parse(decodeBase64Url(payload));
    if (typeof claims !== 'object' || claims === null || !('iat' in claims) || !('exp' in claims)) return null;
    const { iat, exp } = claims;
    return typeof iat === 'number' && typeof exp === 'number' && exp > iat ? { iat, exp } : null;
  } catch {
    return null;
  }
}

/** How long the link lives, by the server's own clock (exp - iat), so a wrong clock in the browser does not matter. */
export function linkLifetimeMs(imsec: string): number {
  const claims = claimsOf(imsec);
  return claims ? claims.exp - claims.iat : FALLBACK_LINK_LIFETIME_MS;
}

/**
 * True when a link received at `receivedAt` (the browser's clock) should be replaced before use at
 * `now`: the page sat open longer than the link lives, less a margin.
 */
export function isLinkStale(imsec: string, receivedAt: number, now: number): boolean {
  const lifetime = linkLifetimeMs(imsec);
  return now - receivedAt >= lifetime - Math.min(MARGIN_MS, lifetime / 4);
}
