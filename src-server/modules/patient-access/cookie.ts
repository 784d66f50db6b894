/**
 * The session cookie by hand (@fastify/cookie is not a dependency): parse a Cookie header and
 * build the Set-Cookie value. `__Host-portal_session` is httpOnly, Secure, SameSite=None and
 * Partitioned (CHIPS) so it works inside a provider's iframe. The __Host- prefix needs Path=/
 * and no Domain (the browser refuses the cookie otherwise), so it is sent with page requests
 * too; only /api routes read it.
 */

export const SESSION_COOKIE_PATH = '/';

/**
 * The value of one cookie in a Cookie request header, or null. The first occurrence wins (the
 * most specific path comes first); a value that is not a plain token is ignored.
 */
export function readCookie(header: string | string[] | undefined, name: string): string | null {
  if (header === undefined) return null;
  const text = Array.isArray(header) ? header.join('; ') : header;
  for (const part of text.split(';')) {
    const index = part.indexOf('=');
    if (index < 0) continue;
    if (part.slice(0, index).trim() !== name) continue;
    let value = part.slice(index + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    return /^[A-Za-z0-9_-]{1,200}$/.test(value) ? value : null;
  }
  return null;
}

/** Set-Cookie for a session token; no Max-Age, so it ends with the browser session (the server ends it sooner). */
export function sessionCookie(name: string, token: string): string {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(token)) throw new Error('sessionCookie: the token must be base64url');
  return `${name}=${token}; Path=${SESSION_COOKIE_PATH}; HttpOnly; Secure; SameSite=None; Partitioned`;
}

/** Set-Cookie that removes the session cookie (same attributes, so the partitioned cookie is the one cleared). */
export function clearedSessionCookie(name: string): string {
  return `${name}=; Path=${SESSION_COOKIE_PATH}; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; Secure; SameSite=None; Partitioned`;
}
