/** The portal page the identity provider sends the browser back to (auth-redirect.html, a registered redirect URI). */
export const REDIRECT_PATH = '/auth/redirect';

/** The authority is a site path (/dev/idp): the local demo provider on the portal's own origin (oidc-token-source.ts). */
export function isSameOriginAuthority(authority: string): boolean {
  return authority.startsWith('/') && !authority.startsWith('//');
}
