import type { CountryCode } from 'libphonenumber-js';
import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { S3Settings } from './platform/storage';
import type { SmsProviderConfig } from './platform/sms/sms-provider';
import type { RisWebhookConfig } from './platform/ris/webhook';
import { ENV, type ParsedVariables, type VariableName, type Values } from './config-env';
import { read, type Env } from './config-parsers';
import { identityOf, type IdentityConfig } from './config-identity';
import { imageViewerOf, type ImageViewerConfig } from './config-results';
import { risCheckInOf, risOf, type RisCheckIn } from './config-ris';
import { hl7Of, type Hl7Config } from './config-hl7';
import { hl7InboundOf, type Hl7InboundConfig } from './config-hl7-inbound';
import { RULES, s3Of } from './config-rules';
import { gitShortHashOf } from './config-git-head';
import { tracingOf, type TracingConfig } from './config-tracing';
import type { LogLevel } from './config-values';
import { Refused, type ConfigContext, type Variable } from './config-variable';

export { ENV, ENV_VARIABLES, type EnvVariable } from './config-env';
export { LOG_LEVELS, type LogLevel } from './config-values';
export type { ConfigContext } from './config-variable';

/**
 * Server configuration, parsed once at the edge (docs/server.md#configuration). `parseConfig` is pure:
 * it gets the environment and the few facts it cannot know (working directory, package version,
 * git hash) as arguments, and answers either a typed Config or one line per bad value.
 * Domain code never reads process.env; it receives this object. Each variable is declared once in
 * config-env.ts (README text and parser together); the rules across variables are in config-rules.ts.
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
  /** The embedded PGlite's shared buffer pool, in MB; null: sized by the database (db/pglite-settings.ts). */
  pgliteSharedBuffersMb: number | null;
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
  /** SMS_INBOUND_TOKEN_SHA256: the SMS provider's inbound webhook's bearer tokens (their digests); empty: SMS replies are not taken. */
  smsInboundTokenSha256: string[];
  /** SMS_DEFAULT_COUNTRY: the country of numbers written without +, to match a reply's number to the reminder's. */
  smsDefaultCountry: CountryCode;
  /** Key for the HMACs of one-time passwords and attempt records; null: a random one kept in the database. */
  sessionSecret: string | null;
  /** Lower-case sha256 hex digests of the staff API bearer tokens (booking-request status changes); empty: no staff API. */
  staffApiTokenSha256: string[];
  /** INTEGRATION_API_TOKEN_SHA256: the RIS and PACS integration's bearer tokens (their digests). */
  integrationApiTokenSha256: string[];
  /** METRICS_TOKEN_SHA256: the Prometheus scraper's bearer tokens (their digests); empty: /metrics answers 404. */
  metricsTokenSha256: string[];
  /** OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT and OTEL_SERVICE_NAME; absent: no traces (src-server/config-tracing.ts). */
  tracing?: TracingConfig;
  /** Fastify's trustProxy: the proxies whose X-Forwarded-For names the client; empty: trust none. */
  trustProxy: string[];
  /** Serve the web build's *.map files (they reveal the source); otherwise they answer 404. */
  sourceMapsPublic: boolean;
  /** Staff sign-in: the provider's identity provider, the local demo one, or off (src-server/config-identity.ts). */
  identity: IdentityConfig;
  /** FHIR_AUDIENCE: the `aud` the FHIR API's access tokens must carry (default PUBLIC_URL/fhir/R4). */
  fhirAudience: string;
  /** DEV_IDENTITY_RIS_CLIENT_SECRET: the demo identity provider's RIS client secret; null: a random one at each start. */
  devRisClientSecret: string | null;
  /** S3-compatible storage for attachments; null: a folder under dataDir (docs/rules/attachments.md#storage). */
  s3: S3Settings | null;
  /** ClamAV daemon socket (unix path or tcp://host:port); null: uploads are not virus-scanned. */
  clamavSocket: string | null;
  /** The clinic's RIS webhook for check-in hand-offs; null: the demo receiver outside production, else they stay queued. */
  ris: RisWebhookConfig | null;
  /** HL7_RIS_ADDRESS and the header names: HL7 v2 messages to the RIS (docs/integration/hl7.md); null: none sent. */
  hl7: Hl7Config | null;
  /** HL7_LISTEN_ADDRESS and what goes with it: the portal's MLLP listener for the RIS (docs/integration/hl7.md#from-the-ris); null: none. */
  hl7Inbound: Hl7InboundConfig | null;
  /** RIS_CHECK_IN: how check-in hand-offs reach the RIS, the webhook or HL7 v2 (ADT^A05, ADT^A04). */
  risCheckIn: RisCheckIn;
  /** RIS_WEBHOOK_URL unset outside production: the demo RIS (src-server/dev-ris/) takes the hand-offs, by the wire chosen. */
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
  const { parsed, problems } = parseVariables(env, context);
  for (const rule of RULES) rule(parsed, (name, message) => problems.push(`- ${name}: ${message}`));
  if (problems.length > 0) return { ok: false, problems };
  // No problem line: every variable's parser answered a value.
  return { ok: true, config: configOf(parsed.values as Values) };
}

/** Each declared variable through its own parser, in the table's order; the only reads of `env`. */
function parseVariables(env: Env, context: ConfigContext): { parsed: ParsedVariables; problems: string[] } {
  const entries = Object.entries(ENV) as [VariableName, Variable<unknown, VariableName>][];
  const text: Partial<Record<VariableName, string>> = {};
  for (const [name, variable] of entries) {
    const raw = variable.untrimmed === true ? env[name] : read(env, name);
    if (raw !== undefined) text[name] = raw;
  }
  const values: Partial<Record<VariableName, unknown>> = {};
  const problems: string[] = [];
  for (const [name, variable] of entries) {
    const link = variable.with;
    const alone = link !== undefined && text[link.name] === undefined && text[name] !== undefined;
    const unused = variable.unusedWith !== undefined && text[variable.unusedWith] !== undefined;
    // A variable read alone or unused takes its unset value.
    const value = variable.parse((alone && link?.alone !== 'checked') || unused ? undefined : text[name], context);
    if (value instanceof Refused) problems.push(...value.messages.map((message) => `- ${name}: ${message}`));
    else values[name] = value;
    if (alone && link?.alone !== 'ignored') problems.push(`- ${name}: is set but ${link?.name} is not; set ${link?.name} too or unset it`);
  }
  return { parsed: { text, values: values as Partial<Values> }, problems };
}

/** The typed configuration from values every parser and rule accepted. */
function configOf(values: Values): Config {
  const production = values.NODE_ENV;
  const ris = risOf(values);
  return {
    port: values.PORT,
    host: values.HOST,
    dataDir: values.DATA_DIR,
    databaseUrl: values.DATABASE_URL,
    pgliteSharedBuffersMb: values.PGLITE_SHARED_BUFFERS_MB,
    webRoot: values.WEB_ROOT,
    logLevel: values.LOG_LEVEL,
    embedOrigins: values.EMBED_ORIGINS,
    publicUrl: values.PUBLIC_URL ?? `http://localhost:${values.PORT}`,
    smtp: smtpOf(values),
    outboxPollMs: values.OUTBOX_POLL_MS,
    outboxMaxAttempts: values.OUTBOX_MAX_ATTEMPTS,
    outboxKeepSentDays: values.OUTBOX_KEEP_SENT_DAYS,
    mailDevOutbox: devOutboxMode(values),
    sms: values.SMS_PROVIDER_URL === null ? null : { url: values.SMS_PROVIDER_URL, apiKey: values.SMS_PROVIDER_API_KEY ?? '' },
    smsInboundTokenSha256: values.SMS_INBOUND_TOKEN_SHA256,
    smsDefaultCountry: values.SMS_DEFAULT_COUNTRY,
    sessionSecret: values.SESSION_SECRET,
    staffApiTokenSha256: values.STAFF_API_TOKEN_SHA256,
    integrationApiTokenSha256: values.INTEGRATION_API_TOKEN_SHA256,
    metricsTokenSha256: values.METRICS_TOKEN_SHA256,
    ...tracingOf(values),
    trustProxy: values.TRUST_PROXY,
    sourceMapsPublic: values.SOURCE_MAPS,
    identity: identityOf(values),
    fhirAudience: values.FHIR_AUDIENCE ?? `${values.PUBLIC_URL ?? `http://localhost:${values.PORT}`}/fhir/R4`,
    devRisClientSecret: values.DEV_IDENTITY_RIS_CLIENT_SECRET,
    s3: s3Of(values),
    clamavSocket: values.CLAMAV_SOCKET,
    ris,
    hl7: hl7Of(values),
    hl7Inbound: hl7InboundOf(values),
    risCheckIn: risCheckInOf(values),
    risDemoReceiver: ris === null && !production,
    kioskSilentMinutes: values.KIOSK_SILENT_MINUTES,
    imageViewer: imageViewerOf(values),
    mapTileUrl: values.MAP_TILE_URL,
    shutdownTimeoutMs: values.SHUTDOWN_TIMEOUT_MS,
    appVersion: values.APP_VERSION,
    appVersionHash: values.APP_VERSION_HASH,
  };
}

function smtpOf(values: Values): SmtpConfig | null {
  if (values.SMTP_HOST === null) return null;
  const user = values.SMTP_USER;
  const password = values.SMTP_PASSWORD;
  return {
    host: values.SMTP_HOST,
    port: values.SMTP_PORT,
    secure: values.SMTP_PORT === 465,
    auth: user !== null && password !== null ? { user, password } : null,
    from: values.SMTP_FROM ?? '',
  };
}

/** Asked for (the rules refused it beside real delivery or in production), else on only with the demo provider. */
function devOutboxMode(values: Values): DevOutboxMode {
  if (values.MAIL_DEV_OUTBOX_ENABLED !== null) return values.MAIL_DEV_OUTBOX_ENABLED ? 'on' : 'off';
  return values.NODE_ENV || values.SMTP_HOST !== null || values.SMS_PROVIDER_URL !== null ? 'off' : 'demo';
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
  // Not a git checkout: APP_VERSION_HASH falls back to 'dev'.
  return { cwd: isAbsolute(cwd) ? cwd : resolve(cwd), packageVersion, gitShortHash: gitShortHashOf(cwd) };
}
