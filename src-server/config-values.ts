import { isSupportedCountry, type CountryCode } from 'libphonenumber-js';
import { resolve } from 'node:path';
import { parseTokenDigests } from './platform/api-tokens';
import { parseVirusScanSettings } from './platform/virus-scan';
import { httpOrigin, httpUrl, isHttpsOrLoopbackUrl, parseTrustProxy } from './config-parsers';
import { collected, quote, refuse, type Parse } from './config-variable';

/**
 * The parsers of the server's own variables, one per variable (the table in config-env.ts names
 * them). Messages never quote a secret: DATABASE_URL, SESSION_SECRET, SMS_PROVIDER_API_KEY and the
 * token digests are described, not repeated.
 */

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const host: Parse<string> = (raw = '0.0.0.0') =>
  /\s/.test(raw) || raw.includes('/') ? refuse(`must be a host name or IP address, got ${quote(raw)}`) : raw;

/** A folder, resolved against the working directory. */
export function folder(fallback: string): Parse<string> {
  return (raw, context) => resolve(context.cwd, raw ?? fallback);
}

export const databaseUrl: Parse<string | null> = (raw) => {
  if (raw === undefined) return null;
  let valid = false;
  try {
    const url = new URL(raw);
    valid = (url.protocol === 'postgres:' || url.protocol === 'postgresql:') && url.hostname !== '';
  } catch {
    valid = false;
  }
  // The raw value may hold a password, so the message never repeats it.
  return valid ? raw : refuse('must look like postgres://user:password@host:5432/database');
};

export const logLevel: Parse<LogLevel> = (raw) => {
  if (raw === undefined) return 'info';
  const level = LOG_LEVELS.find((candidate) => candidate === raw.toLowerCase());
  return level ?? refuse(`must be one of ${LOG_LEVELS.join(', ')}, got ${quote(raw)}`);
};

export const embedOrigins: Parse<string[]> = (raw = '') =>
  collected((problem) => {
    const origins: string[] = [];
    for (const part of raw
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item !== '')) {
      const origin = httpOrigin(part);
      if (origin === null) problem(`${quote(part)} is not an http(s) origin such as https://www.example.com (no path)`);
      else if (!origins.includes(origin)) origins.push(origin);
    }
    return origins;
  });

/** Without a trailing slash; null when unset (http://localhost:PORT then, config.ts). */
export const publicUrl: Parse<string | null> = (raw) => {
  if (raw === undefined) return null;
  const url = httpUrl(raw);
  if (url === null || url.search !== '' || url.hash !== '') {
    return refuse(`must be an http(s) URL such as https://portal.example.com, got ${quote(raw)}`);
  }
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
};

export const smtpHost: Parse<string | null> = (raw) =>
  raw !== undefined && /\s/.test(raw) ? refuse(`must be a host name, got ${quote(raw)}`) : (raw ?? null);

export const smtpFrom: Parse<string | null> = (raw) =>
  raw !== undefined && !/^[^\s<>@]+@[^\s<>@]+$|<[^\s<>@]+@[^\s<>@]+>$/.test(raw)
    ? refuse(`must be an e-mail address, optionally with a name: "Portal <portal@example.com>", got ${quote(raw)}`)
    : (raw ?? null);

export const smsUrl: Parse<string | null> = (raw) =>
  raw !== undefined && !isHttpsOrLoopbackUrl(raw)
    ? refuse('must be an https URL such as https://sms.example.com/send (http only to localhost or 127.0.0.1)')
    : (raw ?? null);

/** Two letters libphonenumber-js knows (ISO 3166-1 alpha-2). */
export const smsDefaultCountry: Parse<CountryCode> = (raw) => {
  const code = (raw ?? 'AU').trim().toUpperCase();
  return isSupportedCountry(code) ? code : refuse('must be a two-letter country code such as AU, NZ or MK');
};

export const smsApiKey: Parse<string | null> = (raw) =>
  raw !== undefined && (/\s/.test(raw) || raw.length > 500)
    ? refuse('must be one token without spaces, at most 500 characters')
    : (raw ?? null);

/** true, false, or null when unset (then the demo provider decides, config.ts). */
export const devOutbox: Parse<boolean | null> = (raw) => {
  if (raw === undefined) return null;
  return raw === 'true' || raw === 'false' ? raw === 'true' : refuse(`must be true or false, got ${quote(raw)}`);
};

/** Only "production" counts. */
export const production: Parse<boolean> = (raw) => raw === 'production';

// Never quoted back: it is a secret.
export const sessionSecret: Parse<string | null> = (raw) =>
  raw !== undefined && raw.length < 32 ? refuse('must be at least 32 characters long') : (raw ?? null);

/** Comma-separated sha256 digests of bearer tokens (platform/api-tokens.ts; never quoted, a token may be pasted by mistake). */
export function tokenDigests(name: string): Parse<string[]> {
  return (raw) => collected((problem) => parseTokenDigests({ [name]: raw }, name, (_name, message) => problem(message)));
}

export const trustProxy: Parse<string[]> = (raw) => {
  const trusted = parseTrustProxy(raw);
  return trusted.problems.length > 0 ? refuse(...trusted.problems) : trusted.entries;
};

export const sourceMapsPublic: Parse<boolean> = (raw = 'off') =>
  raw === 'public' || raw === 'off' ? raw === 'public' : refuse(`must be public or off, got ${quote(raw)}`);

export const clamavSocket: Parse<string | null> = (raw) => {
  try {
    return parseVirusScanSettings({ CLAMAV_SOCKET: raw })?.socket ?? null;
  } catch (error) {
    return refuse(error instanceof Error ? error.message : 'is not valid');
  }
};

const VERSION = /^[\w.+-]{1,64}$/;

/** APP_VERSION and APP_VERSION_HASH; their fallbacks (package.json, git) are checked as well. */
export function version(fallback: (context: { packageVersion: string; gitShortHash: string | null }) => string): Parse<string> {
  return (raw, context) => {
    const value = raw ?? fallback(context);
    return VERSION.test(value) ? value : refuse(`must be 1 to 64 letters, digits, '.', '+', '-' or '_', got ${quote(value)}`);
  };
}
