import { execFileSync } from 'node:child_process';
import { parseS3Settings, type S3Settings } from './platform/storage';
import { parseVirusScanSettings } from './platform/virus-scan';
import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { LOG_LEVELS, type LogLevel } from './config-env';
import { httpOrigin, isHttpsOrLoopbackUrl, parseTrustProxy, read, wholeNumber, type Env } from './config-parsers';
import type { SmsProviderConfig } from './platform/sms/sms-provider';
import { parseIdentityConfig, type IdentityConfig } from './config-identity';
import { parseKioskSilentMinutes } from './config-kiosk';
import { MapTilesSchema } from '@contract/api/config';
import { parseImageViewerConfig, type ImageViewerConfig } from './config-results';
import { parseTokenDigests } from './platform/api-tokens';
import { parseRisConfig } from './config-ris';
import type { RisWebhookConfig } from './platform/ris/webhook';

export { ENV_VARIABLES, LOG_LEVELS, type EnvVariable, type LogLevel } from './config-env';

/**
 * Server configuration, parsed once at the edge (docs/server.md#configuration). `parseConfig` is pure:
 * it gets the environment and the few facts it cannot know (working directory, package version,
 * git hash) as arguments, and answers either a typed Config or one line per bad value.
 * Domain code never reads process.env; it receives this object. The variables themselves are
 * listed in config-env.ts, the small parsers are in config-parsers.ts.
 */

/**
 * The development outbox: 'on' (asked for), 'off', or 'demo': on only while the database serves
 * the demo provider (src-server/db/seed/demo-marker.ts). Either way it answers only requests
 * from this machine (src-server/modules/notifications/dev-outbox-access.ts).
 */
export type DevOutboxMode = 'on' | 'off' | 'demo';

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
  /** GET /dev/outbox and /api/dev/outbox list queued and sent mail; never on with real mail, SMS or in production. */
  mailDevOutbox: DevOutboxMode;
  /** SMS provider API (one-time passwords by SMS); null: SMS is not offered. */
  sms: SmsProviderConfig | null;
  /** Key for the HMACs of one-time passwords and attempt records; null: a random one kept in the database. */
  sessionSecret: string | null;
  /** Lower-case sha256 hex digests of the staff API bearer tokens (booking-request status changes); empty: no staff API. */
  staffApiTokenSha256: string[];
  /** INTEGRATION_API_TOKEN_SHA256: the RIS and PACS integration's bearer tokens (their digests). */
  integrationApiTokenSha256: string[];
  /** Fastify's trustProxy: the proxies whose X-Forwarded-For names the client; empty: trust none. */
  trustProxy: string[];
  /** Serve the web build's *.map files (they reveal the source); otherwise they answer 404. */
  sourceMapsPublic: boolean;
  /** Staff sign-in: the provider's identity provider, the local demo one, or off (src-server/config-identity.ts). */
  identity: IdentityConfig;
  /** S3-compatible storage for attachments; null: a folder under dataDir (docs/rules/attachments.md#storage). */
  s3: S3Settings | null;
  /** ClamAV daemon socket (unix path or tcp://host:port); null: uploads are not virus-scanned. */
  clamavSocket: string | null;
  /** The clinic's RIS webhook for check-in hand-offs; null: the demo receiver outside production, else they stay queued. */
  ris: RisWebhookConfig | null;
  /** RIS_WEBHOOK_URL unset outside production: the demo RIS receiver (src-server/dev-ris/) takes the hand-offs. */
  risDemoReceiver: boolean;
  /** KIOSK_SILENT_MINUTES: an enrolled kiosk unheard of this long shows as silent on the staff kiosk page. */
  kioskSilentMinutes: number;
  /** Where patients' images open, and the signed-link keys (src-server/config-results.ts). */
  imageViewer: ImageViewerConfig;
  /** MAP_TILE_URL: replaces the provider's map tile URL template (an on-premises tile server, the tests' local tiles). */
  mapTileUrl: string | null;
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
  let sms: SmsProviderConfig | null = null;
  const smsUrl = read(env, 'SMS_PROVIDER_URL');
  const smsKey = read(env, 'SMS_PROVIDER_API_KEY');
  if (smsUrl === undefined) {
    if (smsKey !== undefined) problem('SMS_PROVIDER_API_KEY', 'is set but SMS_PROVIDER_URL is not; set SMS_PROVIDER_URL too or unset it');
  } else {
    if (!isHttpsOrLoopbackUrl(smsUrl)) {
      problem('SMS_PROVIDER_URL', 'must be an https URL such as https://sms.example.com/send (http only to localhost or 127.0.0.1)');
    }
    if (smsKey === undefined) problem('SMS_PROVIDER_API_KEY', 'is required when SMS_PROVIDER_URL is set');
    else if (/\s/.test(smsKey) || smsKey.length > 500)
      problem('SMS_PROVIDER_API_KEY', 'must be one token without spaces, at most 500 characters');
    sms = { url: smsUrl, apiKey: smsKey ?? '' };
  }

  // The development outbox shows patients' mail and one-time codes: never beside real mail or SMS
  // (it would only expose what is really sent) and never in production.
  const production = read(env, 'NODE_ENV') === 'production';
  let mailDevOutbox: DevOutboxMode = production || smtpHost !== undefined || smsUrl !== undefined ? 'off' : 'demo';
  const rawDevOutbox = read(env, 'MAIL_DEV_OUTBOX_ENABLED');
  if (rawDevOutbox === 'false') mailDevOutbox = 'off';
  else if (rawDevOutbox === 'true') {
    const realDelivery = [smtpHost === undefined ? null : 'SMTP_HOST', smsUrl === undefined ? null : 'SMS_PROVIDER_URL'].filter(
      (name) => name !== null,
    );
    if (production) {
      problem('MAIL_DEV_OUTBOX_ENABLED', "true is not allowed with NODE_ENV=production: the outbox shows patients' mail; unset it");
    }
    if (realDelivery.length > 0) {
      problem(
        'MAIL_DEV_OUTBOX_ENABLED',
        `true is not allowed with ${realDelivery.join(' and ')} set: real messages go out, so the outbox would only expose them; unset one of them`,
      );
    }
    if (!production && realDelivery.length === 0) mailDevOutbox = 'on';
  } else if (rawDevOutbox !== undefined) problem('MAIL_DEV_OUTBOX_ENABLED', `must be true or false, got ${quote(rawDevOutbox)}`);

  const sessionSecret = read(env, 'SESSION_SECRET') ?? null;
  // Never quoted back: it is a secret.
  if (sessionSecret !== null && sessionSecret.length < 32) problem('SESSION_SECRET', 'must be at least 32 characters long');

  const staffApiTokenSha256 = parseTokenDigests(env, 'STAFF_API_TOKEN_SHA256', problem);
  const integrationApiTokenSha256 = parseTokenDigests(env, 'INTEGRATION_API_TOKEN_SHA256', problem);

  const trusted = parseTrustProxy(read(env, 'TRUST_PROXY'));
  for (const message of trusted.problems) problem('TRUST_PROXY', message);

  let sourceMapsPublic = false;
  const rawSourceMaps = read(env, 'SOURCE_MAPS');
  if (rawSourceMaps === 'public') sourceMapsPublic = true;
  else if (rawSourceMaps !== undefined && rawSourceMaps !== 'off')
    problem('SOURCE_MAPS', `must be public or off, got ${quote(rawSourceMaps)}`);

  const identity = parseIdentityConfig(env, production, problem);
  const ris = parseRisConfig(env, problem);
  const kioskSilentMinutes = parseKioskSilentMinutes(env, problem);
  const imageViewer = parseImageViewerConfig(env, problem);
  const mapTileUrl = read(env, 'MAP_TILE_URL') ?? null;
  if (mapTileUrl !== null) {
    const checked = MapTilesSchema.shape.tileUrl.safeParse(mapTileUrl);
    if (!checked.success) problem('MAP_TILE_URL', checked.error.issues.map((issue) => issue.message).join('; '));
  }

  // Production must not fall back to development defaults that leak or lose patients' data.
  if (production) {
    if (sessionSecret === null) {
      problem(
        'SESSION_SECRET',
        'is required with NODE_ENV=production: set it to a random value of at least 32 characters, e.g. the output of `openssl rand -hex 32`',
      );
    }
    if (rawPublicUrl === undefined) {
      problem(
        'PUBLIC_URL',
        'is required with NODE_ENV=production: set it to the https address patients use, e.g. https://portal.example.com',
      );
    } else if (publicUrl.startsWith('http:') && !problems.some((line) => line.startsWith('- PUBLIC_URL:'))) {
      problem(
        'PUBLIC_URL',
        `must be https with NODE_ENV=production (patients' links and sign-ins travel over it), got ${quote(rawPublicUrl)}`,
      );
    }
    if (smtpHost === undefined) {
      problem(
        'SMTP_HOST',
        'is required with NODE_ENV=production: patients need their confirmations and one-time codes; set SMTP_HOST and SMTP_FROM',
      );
    }
  }

  let s3: S3Settings | null = null;
  try {
    s3 = parseS3Settings(env);
  } catch (error) {
    problem('S3_BUCKET', error instanceof Error ? error.message : 'S3 settings are not valid');
  }
  let clamavSocket: string | null = null;
  try {
    clamavSocket = parseVirusScanSettings(env)?.socket ?? null;
  } catch (error) {
    problem('CLAMAV_SOCKET', error instanceof Error ? error.message : 'is not valid');
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
      mailDevOutbox,
      sms,
      sessionSecret,
      staffApiTokenSha256,
      integrationApiTokenSha256,
      trustProxy: trusted.entries,
      sourceMapsPublic,
      identity,
      s3,
      clamavSocket,
      ris,
      risDemoReceiver: ris === null && !production,
      kioskSilentMinutes,
      imageViewer,
      mapTileUrl,
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
