import { ApiErrorBodySchema } from '@contract/errors';
import type { KioskSession } from './electron-surface';
import type { KioskFetch } from './enrollment';
import type { KioskLog } from './kiosk-log';

/** The prefix of the portal's kiosk routes, below the portal's own path. */
export const KIOSK_API_PREFIX = '/api/kiosk/';

/** The header value the server's kiosk guard accepts (src-server/modules/kiosks/guard.ts). */
export function kioskAuthorization(token: string): string {
  return `Kiosk ${token}`;
}

/**
 * True only for a request to the portal's own origin under `{portal path}/api/kiosk/`. Parsed,
 * never compared as strings; URLs with credentials, and encoded dots or slashes that could step
 * out of the kiosk routes after decoding, are refused.
 */
export function isKioskApiRequest(url: string, portalUrl: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  const portal = new URL(portalUrl);
  if (parsed.origin !== portal.origin || parsed.username !== '' || parsed.password !== '') return false;
  if (/%2e|%2f|%5c/i.test(parsed.pathname)) return false;
  return parsed.pathname.startsWith(`${portal.pathname.replace(/\/+$/, '')}${KIOSK_API_PREFIX}`);
}

/** Is the response the server's "this kiosk needs to be enrolled again"? */
export async function isKioskNotEnrolled(response: Response): Promise<boolean> {
  if (response.status !== 401) return false;
  const body = ApiErrorBodySchema.safeParse(await response.json().catch(() => null));
  return body.success && body.data.code === 'kiosk_not_enrolled';
}

/**
 * Asks the portal whether the token still works (GET /api/kiosk/me). A page's 401 alone is not
 * proof: a check-in route also answers 401 for a missing patient session.
 */
export async function probeKioskToken(fetch: KioskFetch, portalUrl: string, token: string): Promise<'ok' | 'revoked' | 'unknown'> {
  try {
    const response = await fetch(`${portalUrl}${KIOSK_API_PREFIX}me`, {
      method: 'GET',
      headers: { authorization: kioskAuthorization(token), accept: 'application/json' },
    });
    if (response.ok) return 'ok';
    return (await isKioskNotEnrolled(response)) ? 'revoked' : 'unknown';
  } catch {
    return 'unknown';
  }
}

export interface KioskAuthOptions {
  session: Pick<KioskSession, 'webRequest'>;
  portalUrl: string;
  credential: { token(): string | null; revoked(): void };
  fetch: KioskFetch;
  log: KioskLog;
}

/**
 * Adds `Authorization: Kiosk <token>` to the portal's kiosk routes and nowhere else, in main,
 * so page JavaScript never holds the token. A 401 on a kiosk route makes main check the token
 * itself; a confirmed kiosk_not_enrolled deletes it and shows the enroll-again screen.
 */
export function installKioskAuth(options: KioskAuthOptions): void {
  const { session, portalUrl, credential, log } = options;
  let checking = false;

  session.webRequest.onBeforeSendHeaders((details, callback) => {
    const token = credential.token();
    if (!token || !isKioskApiRequest(details.url, portalUrl)) {
      callback({ requestHeaders: details.requestHeaders });
      return;
    }
    // Drop any Authorization the page set itself, whatever its case; ours is the only one.
    const headers = Object.fromEntries(Object.entries(details.requestHeaders).filter(([name]) => name.toLowerCase() !== 'authorization'));
    callback({ requestHeaders: { ...headers, Authorization: kioskAuthorization(token) } });
  });

  session.webRequest.onCompleted((details) => {
    if (details.statusCode !== 401 || checking || !isKioskApiRequest(details.url, portalUrl)) return;
    const token = credential.token();
    if (!token) return;
    checking = true;
    void probeKioskToken(options.fetch, portalUrl, token)
      .then((result) => {
        // The token may have changed while we asked; only the one refused is forgotten.
        if (result === 'revoked' && credential.token() === token) credential.revoked();
        else if (result === 'unknown') log.warn('[kiosk-auth] a kiosk route answered 401; the token check was inconclusive');
      })
      .finally(() => {
        checking = false;
      });
  });
}
