import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { SmsProviderConfig } from './platform/sms/sms-provider';

/**
 * Server configuration, parsed once at the edge (docs/server.md#configuration). `parseConfig` is pure:
 * it gets the environment and the few facts it cannot know (working directory, package version,
 * git hash) as arguments, and answers either a typed Config or one line per bad value.
 * Domain code never reads process.env; it receives this object.
 */

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface SmtpConfig {
  host: string;
  port: number;
  /** Implicit TLS on port 465; STARTTLS is negotiated on the others. */
  secure: boolean;
  auth: { user: string; password: string } | null;
  from: string;
}

export interface Config {
  port: number;
  host: string;
  /** Absolute path; holds pglite/, files/ and the server lock. */
  dataDir: string;
  /** null: embedded PGlite under dataDir/pglite. */
  databaseUrl: string | null;
  /** Absolute path of the built web app (index.html + assets/). */
  webRoot: string;
  logLevel: LogLevel;
  /** Extra origins allowed to frame the portal, added to the provider's own list. */
  embedOrigins: string[];
  /** Where people reach this server, without a trailing slash. */
  publicUrl: string;
  smtp: SmtpConfig | null;
  /** How often the outbox worker looks for mail to send. */
  outboxPollMs: number;
  /** Attempts before a mail is kept as 'failed'. */
  outboxMaxAttempts: number;
  /** Sent mail (it holds personal data) is deleted this many days after sending; failed mail is kept. */
  outboxKeepSentDays: number;
  /** GET /dev/outbox and /api/dev/outbox list queued and sent mail (never on by default in production). */
  mailDevOutboxEnabled: boolean;
  /** SMS provider API (one-time passwords by SMS); null: SMS is not offered. */
  sms: SmsProviderConfig | null;
  /** Key for the HMACs of one-time passwords and attempt records; null: a random one kept in the database. */
  sessionSecret: string | null;
  /** Lower-case sha256 hex digests of the staff API bearer tokens (booking-request status changes); empty: no staff API. */
  staffApiTokenSha256: string[];
  shutdownTimeoutMs: number;
  appVersion: string;
  appVersionHash: string;
}

/** What parseConfig cannot know by itself; loadConfigContext() reads it for main.ts. */
export interface ConfigContext {
  cwd: string;
  packageVersion: string;
  /** `git rev-parse --short HEAD`, or null outside a git checkout. */
  gitShortHash: string | null;
}

export type ConfigResult = { ok: true; config: Config } | { ok: false; problems: string[] };

export interface EnvVariable {
  name: string;
  default: string;
  description: string;
}

/** Every variable the server reads, for the README table and for `parseConfig`'s messages. */
export const ENV_VARIABLES: readonly EnvVariable[] = [
  { name: 'PORT', default: '3000', description: 'TCP port the server listens on.' },
  { name: 'HOST', default: '0.0.0.0', description: 'Interface to listen on (127.0.0.1 to stay local).' },
  {
    name: 'DATA_DIR',
    default: './data',
    description: 'Folder for the embedded database (pglite/), stored files (files/) and the server lock.',
  },
  {
    name: 'DATABASE_URL',
    default: '(unset: embedded PGlite in DATA_DIR/pglite)',
    description: 'postgres://user:password@host:5432/db to use a PostgreSQL server instead of PGlite.',
  },
  { name: 'WEB_ROOT', default: './dist/web', description: 'The built web app the server serves (npm run build:web).' },
  { name: 'LOG_LEVEL', default: 'info', description: `One of ${LOG_LEVELS.join(', ')}. Logs are JSON lines on stdout.` },
  {
    name: 'EMBED_ORIGINS',
    default: '(none)',
    description:
      "Comma-separated extra origins allowed to frame the portal (CSP frame-ancestors), added to the provider's configured ones, e.g. https://www.example.com.",
  },
  {
    name: 'PUBLIC_URL',
    default: 'http://localhost:PORT',
    description: 'The address people use to reach the portal; used in printed links and e-mails.',
  },
  { name: 'SMTP_HOST', default: '(unset: no e-mail transport)', description: 'SMTP server for outgoing mail.' },
  { name: 'SMTP_PORT', default: '587', description: 'SMTP port; 465 uses implicit TLS, others STARTTLS.' },
  { name: 'SMTP_USER', default: '(none)', description: 'SMTP user name (set together with SMTP_PASSWORD).' },
  { name: 'SMTP_PASSWORD', default: '(none)', description: 'SMTP password (set together with SMTP_USER).' },
  { name: 'SMTP_FROM', default: '(required with SMTP_HOST)', description: 'Sender address, e.g. "Portal <portal@example.com>".' },
  { name: 'OUTBOX_POLL_MS', default: '1000', description: 'How often (ms, 100 to 600000) the mail outbox is checked for mail to send.' },
  {
    name: 'OUTBOX_MAX_ATTEMPTS',
    default: '10',
    description: "Send attempts (1 to 100, backing off from 30 s to 1 h) before a mail is kept as 'failed'.",
  },
  {
    name: 'OUTBOX_KEEP_SENT_DAYS',
    default: '30',
    description: 'Days (1 to 3650) a sent mail stays in the outbox before it is deleted; failed mail is kept.',
  },
  {
    name: 'MAIL_DEV_OUTBOX_ENABLED',
    default: 'true, or false when NODE_ENV=production',
    description: 'true shows queued and sent e-mail at /dev/outbox and /api/dev/outbox (development only: it shows personal data).',
  },
  {
    name: 'NODE_ENV',
    default: '(unset)',
    description: 'Only "production" is read: it turns the development outbox page off unless MAIL_DEV_OUTBOX_ENABLED says otherwise.',
  },
  {
    name: 'SMS_PROVIDER_URL',
    default: '(unset: no SMS; one-time passwords by e-mail only)',
    description:
      'SMS provider API: the server POSTs JSON {to, text} here with SMS_PROVIDER_API_KEY as a bearer token. https, or http to localhost/127.0.0.1.',
  },
  { name: 'SMS_PROVIDER_API_KEY', default: '(required with SMS_PROVIDER_URL)', description: 'Bearer token for the SMS provider API.' },
  {
    name: 'SESSION_SECRET',
    default: '(unset: a random secret kept in the database)',
    description:
      'At least 32 characters; keys the HMACs of one-time passwords and sign-in attempt records. Set it in production so a database copy alone cannot test codes.',
  },
  {
    name: 'STAFF_API_TOKEN_SHA256',
    default: '(unset: no staff API)',
    description:
      'Comma-separated sha256 hex digests of the bearer tokens staff tools use (PUT /api/booking-requests/{key}/status); only the digests are configured, never the tokens.',
  },
  {
    name: 'SHUTDOWN_TIMEOUT_MS',
    default: '10000',
    description: 'On SIGTERM/SIGINT, how long in-flight requests may take before the server closes anyway.',
  },
  { name: 'APP_VERSION', default: 'package.json version', description: 'Version shown in the footer and /api/health.' },
  {
    name: 'APP_VERSION_HASH',
    default: "git rev-parse --short HEAD, else 'dev'",
    description: 'Build identifier shown in the footer tooltip.',
  },
];

type Env = Readonly<Record<string, string | undefined>>;

/** An unset or blank variable counts as unset, so `PORT= npm start` means the default. */
function read(env: Env, name: string): string | undefined {
  const value = env[name];
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

function wholeNumber(raw: string, min: number, max: number): number | null {
  if (!/^\d+$/.test(raw)) return null;
  const value = Number(raw);
  return Number.isSafeInteger(value) && value >= min && value <= max ? value : null;
}

function httpOrigin(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  // An origin has no path, query, fragment or credentials; `https://a.com/` is accepted as `https://a.com`.
  if (url.origin !== raw.replace(/\/$/, '')) return null;
  return url.origin;
}

/** Never echo a database password back into a terminal or log. */
export function redactDatabaseUrl(raw: string): string {
  try {
    const url = new URL(raw);
    const port = url.port === '' ? '5432' : url.port;
    return `${url.protocol}//${url.hostname}:${port}${url.pathname}`;
  } catch {
    return '(unparseable URL)';
  }
}

/**
 * Validates the environment. Pure: same input, same answer, no I/O.
 * @param env - usually process.env.
 * @param context - working directory and version facts, see loadConfigContext().
 */
export function parseConfig(env: Env, context: ConfigContext): ConfigResult {
  const problems: string[] = [];
  const problem = (name: string, message: string): void => {
    problems.push(`- ${name}: ${message}`);
  };
  const quote = (raw: string): string => `'${raw.length > 80 ? `${raw.slice(0, 80)}…` : raw}'`;

  let port = 3000;
  const rawPort = read(env, 'PORT');
  if (rawPort !== undefined) {
    const parsed = wholeNumber(rawPort, 1, 65535);
    if (parsed === null) problem('PORT', `must be a whole number from 1 to 65535, got ${quote(rawPort)}`);
    else port = parsed;
  }

  const host = read(env, 'HOST') ?? '0.0.0.0';
  if (/\s/.test(host) || host.includes('/')) problem('HOST', `must be a host name or IP address, got ${quote(host)}`);

  const path = (name: string, fallback: string): string => resolve(context.cwd, read(env, name) ?? fallback);
  const dataDir = path('DATA_DIR', './data');
  const webRoot = path('WEB_ROOT', './dist/web');

  let databaseUrl: string | null = null;
  const rawDatabaseUrl = read(env, 'DATABASE_URL');
  if (rawDatabaseUrl !== undefined) {
    let valid = false;
    try {
      const url = new URL(rawDatabaseUrl);
      valid = (url.protocol === 'postgres:' || url.protocol === 'postgresql:') && url.hostname !== '';
    } catch {
      valid = false;
    }
    // The raw value may hold a password, so the message never repeats it.
    if (!valid) problem('DATABASE_URL', 'must look like postgres://user:password@host:5432/database');
    else databaseUrl = rawDatabaseUrl;
  }

  let logLevel: LogLevel = 'info';
  const rawLogLevel = read(env, 'LOG_LEVEL');
  if (rawLogLevel !== undefined) {
    const level = LOG_LEVELS.find((candidate) => candidate === rawLogLevel.toLowerCase());
    if (level === undefined) problem('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}, got ${quote(rawLogLevel)}`);
    else logLevel = level;
  }

  const embedOrigins: string[] = [];
  const rawEmbed = read(env, 'EMBED_ORIGINS');
  if (rawEmbed !== undefined) {
    for (const part of rawEmbed
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item !== '')) {
      const origin = httpOrigin(part);
      if (origin === null) {
        problem('EMBED_ORIGINS', `${quote(part)} is not an http(s) origin such as https://www.example.com (no path)`);
      } else if (!embedOrigins.includes(origin)) {
        embedOrigins.push(origin);
      }
    }
  }

  let publicUrl = `http://localhost:${port}`;
  const rawPublicUrl = read(env, 'PUBLIC_URL');
  if (rawPublicUrl !== undefined) {
    let url: URL | null = null;
    try {
      url = new URL(rawPublicUrl);
    } catch {
      url = null;
    }
    if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.search !== '' || url.hash !== '') {
      problem('PUBLIC_URL', `must be an http(s) URL such as https://portal.example.com, got ${quote(rawPublicUrl)}`);
    } else {
      publicUrl = `${url.origin}${url.pathname}`.replace(/\/+$/, '');
    }
  }

  let smtp: SmtpConfig | null = null;
  const smtpHost = read(env, 'SMTP_HOST');
  const smtpUser = read(env, 'SMTP_USER');
  const smtpPassword = read(env, 'SMTP_PASSWORD');
  const smtpFrom = read(env, 'SMTP_FROM');
  const rawSmtpPort = read(env, 'SMTP_PORT');
  let smtpPort = 587;
  if (rawSmtpPort !== undefined) {
    const parsed = wholeNumber(rawSmtpPort, 1, 65535);
    if (parsed === null) problem('SMTP_PORT', `must be a whole number from 1 to 65535, got ${quote(rawSmtpPort)}`);
    else smtpPort = parsed;
  }
  if (smtpHost === undefined) {
    for (const [name, value] of [
      ['SMTP_PORT', rawSmtpPort],
      ['SMTP_USER', smtpUser],
      ['SMTP_PASSWORD', smtpPassword],
      ['SMTP_FROM', smtpFrom],
    ] as const) {
      if (value !== undefined) problem(name, 'is set but SMTP_HOST is not; set SMTP_HOST too or unset it');
    }
  } else {
    if (/\s/.test(smtpHost)) problem('SMTP_HOST', `must be a host name, got ${quote(smtpHost)}`);
    if (smtpFrom === undefined) problem('SMTP_FROM', 'is required when SMTP_HOST is set, e.g. "Portal <portal@example.com>"');
    else if (!/^[^\s<>@]+@[^\s<>@]+$|<[^\s<>@]+@[^\s<>@]+>$/.test(smtpFrom)) {
      problem('SMTP_FROM', `must be an e-mail address, optionally with a name: "Portal <portal@example.com>", got ${quote(smtpFrom)}`);
    }
    if ((smtpUser === undefined) !== (smtpPassword === undefined)) {
      problem(smtpUser === undefined ? 'SMTP_USER' : 'SMTP_PASSWORD', 'set SMTP_USER and SMTP_PASSWORD together, or neither');
    }
    smtp = {
      host: smtpHost,
      port: smtpPort,
      secure: smtpPort === 465,
      auth: smtpUser !== undefined && smtpPassword !== undefined ? { user: smtpUser, password: smtpPassword } : null,
      from: smtpFrom ?? '',
    };
  }

  let outboxPollMs = 1000;
  const rawOutboxPoll = read(env, 'OUTBOX_POLL_MS');
  if (rawOutboxPoll !== undefined) {
    const parsed = wholeNumber(rawOutboxPoll, 100, 600_000);
    if (parsed === null)
      problem('OUTBOX_POLL_MS', `must be a whole number of milliseconds from 100 to 600000, got ${quote(rawOutboxPoll)}`);
    else outboxPollMs = parsed;
  }
  let outboxMaxAttempts = 10;
  const rawOutboxAttempts = read(env, 'OUTBOX_MAX_ATTEMPTS');
  if (rawOutboxAttempts !== undefined) {
    const parsed = wholeNumber(rawOutboxAttempts, 1, 100);
    if (parsed === null) problem('OUTBOX_MAX_ATTEMPTS', `must be a whole number from 1 to 100, got ${quote(rawOutboxAttempts)}`);
    else outboxMaxAttempts = parsed;
  }
  let outboxKeepSentDays = 30;
  const rawKeepSent = read(env, 'OUTBOX_KEEP_SENT_DAYS');
  if (rawKeepSent !== undefined) {
    const parsed = wholeNumber(rawKeepSent, 1, 3650);
    if (parsed === null) problem('OUTBOX_KEEP_SENT_DAYS', `must be a whole number of days from 1 to 3650, got ${quote(rawKeepSent)}`);
    else outboxKeepSentDays = parsed;
  }
  // The development outbox shows patients' mail, so production has to ask for it explicitly.
  let mailDevOutboxEnabled = read(env, 'NODE_ENV') !== 'production';
  const rawDevOutbox = read(env, 'MAIL_DEV_OUTBOX_ENABLED');
  if (rawDevOutbox !== undefined) {
    if (rawDevOutbox === 'true') mailDevOutboxEnabled = true;
    else if (rawDevOutbox === 'false') mailDevOutboxEnabled = false;
    else problem('MAIL_DEV_OUTBOX_ENABLED', `must be true or false, got ${quote(rawDevOutbox)}`);
  }

  let sms: SmsProviderConfig | null = null;
  const smsUrl = read(env, 'SMS_PROVIDER_URL');
  const smsKey = read(env, 'SMS_PROVIDER_API_KEY');
  if (smsUrl === undefined) {
    if (smsKey !== undefined) problem('SMS_PROVIDER_API_KEY', 'is set but SMS_PROVIDER_URL is not; set SMS_PROVIDER_URL too or unset it');
  } else {
    let url: URL | null = null;
    try {
      url = new URL(smsUrl);
    } catch {
      url = null;
    }
    const loopback = url !== null && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
    if (
      url === null ||
      !(url.protocol === 'https:' || (url.protocol === 'http:' && loopback)) ||
      url.username !== '' ||
      url.password !== ''
    ) {
      problem('SMS_PROVIDER_URL', 'must be an https URL such as https://sms.example.com/send (http only to localhost or 127.0.0.1)');
    }
    if (smsKey === undefined) problem('SMS_PROVIDER_API_KEY', 'is required when SMS_PROVIDER_URL is set');
    else if (/\s/.test(smsKey) || smsKey.length > 500)
      problem('SMS_PROVIDER_API_KEY', 'must be one token without spaces, at most 500 characters');
    sms = { url: smsUrl, apiKey: smsKey ?? '' };
  }

  const sessionSecret = read(env, 'SESSION_SECRET') ?? null;
  // Never quoted back: it is a secret.
  if (sessionSecret !== null && sessionSecret.length < 32) problem('SESSION_SECRET', 'must be at least 32 characters long');

  const staffApiTokenSha256: string[] = [];
  for (const digest of (read(env, 'STAFF_API_TOKEN_SHA256') ?? '').split(',').map((part) => part.trim().toLowerCase())) {
    if (digest === '') continue;
    if (/^[0-9a-f]{64}$/.test(digest)) staffApiTokenSha256.push(digest);
    // Not quoted back: a token pasted here by mistake is a secret.
    else
      problem(
        'STAFF_API_TOKEN_SHA256',
        'must be comma-separated sha256 hex digests (64 hex characters each), e.g. the output of `printf %s TOKEN | sha256sum`',
      );
  }

  let shutdownTimeoutMs = 10_000;
  const rawShutdown = read(env, 'SHUTDOWN_TIMEOUT_MS');
  if (rawShutdown !== undefined) {
    const parsed = wholeNumber(rawShutdown, 100, 600_000);
    if (parsed === null) {
      problem('SHUTDOWN_TIMEOUT_MS', `must be a whole number of milliseconds from 100 to 600000, got ${quote(rawShutdown)}`);
    } else shutdownTimeoutMs = parsed;
  }

  const versionPattern = /^[\w.+-]{1,64}$/;
  const appVersion = read(env, 'APP_VERSION') ?? context.packageVersion;
  if (!versionPattern.test(appVersion)) {
    problem('APP_VERSION', `must be 1 to 64 letters, digits, '.', '+', '-' or '_', got ${quote(appVersion)}`);
  }
  const appVersionHash = read(env, 'APP_VERSION_HASH') ?? context.gitShortHash ?? 'dev';
  if (!versionPattern.test(appVersionHash)) {
    problem('APP_VERSION_HASH', `must be 1 to 64 letters, digits, '.', '+', '-' or '_', got ${quote(appVersionHash)}`);
  }

  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    config: {
      port,
      host,
      dataDir,
      databaseUrl,
      webRoot,
      logLevel,
      embedOrigins,
      publicUrl,
      smtp,
      outboxPollMs,
      outboxMaxAttempts,
      outboxKeepSentDays,
      mailDevOutboxEnabled,
      sms,
      sessionSecret,
      staffApiTokenSha256,
      shutdownTimeoutMs,
      appVersion,
      appVersionHash,
    },
  };
}

/** Reads the package version and the git hash; the only impure part of configuration. */
export function loadConfigContext(cwd: string): ConfigContext {
  let packageVersion = '0.0.0';
  try {
    const manifest: unknown = JSON.parse(readFileSync(resolve(cwd, 'package.json'), 'utf8'));
    if (typeof manifest === 'object' && manifest !== null && 'version' in manifest && typeof manifest.version === 'string') {
      packageVersion = manifest.version;
    }
  } catch {
    // No package.json next to the server (an unusual deployment): the version says so.
  }
  let gitShortHash: string | null = null;
  try {
    const out = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      cwd,
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 2000,
    });
    gitShortHash = out.toString().trim() || null;
  } catch {
    // Not a git checkout or no git binary: APP_VERSION_HASH falls back to 'dev'.
  }
  return { cwd: isAbsolute(cwd) ? cwd : resolve(cwd), packageVersion, gitShortHash };
}
