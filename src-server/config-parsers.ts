import { isIP } from 'node:net';

/** Small parsers shared by parseConfig (src-server/config.ts); each is pure. */

export type Env = Readonly<Record<string, string | undefined>>;

/** An unset or blank variable counts as unset, so `PORT= npm start` means the default. */
export function read(env: Env, name: string): string | undefined {
  const value = env[name];
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

export function wholeNumber(raw: string, min: number, max: number): number | null {
  if (!/^\d+$/.test(raw)) return null;
  const value = Number(raw);
  return Number.isSafeInteger(value) && value >= min && value <= max ? value : null;
}

/** `raw` as an http(s) URL, or null when it is not one. */
export function httpUrl(raw: string): URL | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
}

export function httpOrigin(raw: string): string | null {
  const url = httpUrl(raw);
  if (url === null) return null;
  // An origin has no path, query, fragment or credentials; `https://a.com/` is accepted as `https://a.com`.
  if (url.origin !== raw.replace(/\/$/, '')) return null;
  return url.origin;
}

/** Names proxy-addr (Fastify's trustProxy) knows for the private ranges. */
const TRUST_PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * TRUST_PROXY: which direct peers may tell us the client's address in X-Forwarded-For.
 * Trusting every peer (true, *, a /0 range) would let anyone claim any address and so walk
 * around the per-address limits, so it is refused; so is anything that is not an address.
 * @returns the entries for Fastify's trustProxy (empty: trust no proxy) and one message per bad entry.
 */
export function parseTrustProxy(raw: string | undefined): { entries: string[]; problems: string[] } {
  const entries: string[] = [];
  const problems: string[] = [];
  if (raw === undefined || raw.toLowerCase() === 'false') return { entries, problems };
  for (const part of raw
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '')) {
    const shown = `'${part.length > 60 ? `${part.slice(0, 60)}…` : part}'`;
    const lower = part.toLowerCase();
    if (lower === 'true' || part === '*') {
      problems.push(
        `${shown} would trust every peer, so anyone could claim any address in X-Forwarded-For; list your proxies instead, e.g. 10.0.0.5 or 10.0.0.0/8`,
      );
      continue;
    }
    if (TRUST_PROXY_NAMES.includes(lower)) {
      if (!entries.includes(lower)) entries.push(lower);
      continue;
    }
    const [address = '', prefix, ...rest] = part.split('/');
    const family = address.includes('%') ? 0 : isIP(address);
    const maxPrefix = family === 4 ? 32 : 128;
    const prefixValue = prefix === undefined ? maxPrefix : wholeNumber(prefix, 0, maxPrefix);
    if (family === 0 || rest.length > 0 || prefixValue === null) {
      problems.push(`${shown} is not an IP address or CIDR range such as 10.0.0.0/8 (or loopback, linklocal, uniquelocal)`);
    } else if (prefixValue === 0) {
      problems.push(`${shown} trusts every address, so anyone could claim any address in X-Forwarded-For; list your proxies instead`);
    } else if (!entries.includes(part)) {
      entries.push(part);
    }
  }
  return { entries, problems };
}

/** An https URL, or http to this machine (tests, a local relay); no user or password in it. */
export function isHttpsOrLoopbackUrl(raw: string): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  return (url.protocol === 'https:' || (url.protocol === 'http:' && loopback)) && url.username === '' && url.password === '';
}
