import { MapTilesSchema } from '@contract/api/config';
import {
  DEFAULT_ROLE_MAP,
  devIdentityPort,
  identityAuthority,
  identityIssuer,
  identityJwksUri,
  identityProtocolMode,
  identityRoleMap,
} from './config-identity';
import { kioskSilentMinutes } from './config-kiosk';
import { PGLITE_SHARED_BUFFERS_MAX_MB, PGLITE_SHARED_BUFFERS_MIN_MB } from './db/pglite-settings';
import { imageViewerPreference, imageViewerUrlTemplate, pacsUrl, repositorySources, signedLinkKeys } from './config-results';
import { risCheckIn, risWebhookSecret, risWebhookUrl } from './config-ris';
import { hl7Name, hl7RisAddress } from './config-hl7';
import { hl7ListenAddress, hl7ListenAllow } from './config-hl7-inbound';
import { DEFAULT_SERVICE_NAME, otlpEndpoint, otlpTracesEndpoint, serviceName } from './config-tracing';
import {
  clamavSocket,
  databaseUrl,
  devOutbox,
  embedOrigins,
  folder,
  host,
  LOG_LEVELS,
  logLevel,
  production,
  publicUrl,
  sessionSecret,
  smsApiKey,
  smsDefaultCountry,
  smsUrl,
  smtpFrom,
  smtpHost,
  sourceMapsPublic,
  tokenDigests,
  trustProxy,
  version,
} from './config-values';
import { declareVariables, fromZod, optionalWholeNumberIn, text, wholeNumberIn, type ValueOf } from './config-variable';

/**
 * Every environment variable the server reads, declared once: the README's default and description
 * beside the parser that reads it (docs/server.md#configuration). parseConfig (config.ts) reads
 * exactly these names, each through its own parser, then applies the cross-variable rules
 * (config-rules.ts); scripts/update-readme-env.ts writes the README's table from the same rows,
 * and tests/server/readme-env.test.ts checks it. The order is the README's.
 */

/** Only beside IDENTITY_ISSUER; alone they are reported. */
const ISSUER = { name: 'IDENTITY_ISSUER', alone: 'reported' } as const;
/** Only beside S3_BUCKET (parseS3Settings checks them together, config-rules.ts); alone they are ignored, as before. */
const S3 = { name: 'S3_BUCKET', alone: 'ignored' } as const;

export const ENV = declareVariables({
  PORT: { default: '3000', description: 'TCP port the server listens on.', parse: wholeNumberIn(1, 65535, 3000) },
  HOST: { default: '0.0.0.0', description: 'Interface to listen on (127.0.0.1 to stay local).', parse: host },
  DATA_DIR: {
    default: './data',
    description: 'Folder for the embedded database (pglite/), stored files (files/) and the server lock.',
    parse: folder('./data'),
  },
  DATABASE_URL: {
    default: '(unset: embedded PGlite in DATA_DIR/pglite)',
    description: 'postgres://user:password@host:5432/db to use a PostgreSQL server instead of PGlite.',
    parse: databaseUrl,
  },
  PGLITE_SHARED_BUFFERS_MB: {
    default: `(automatic: a quarter of the database, ${PGLITE_SHARED_BUFFERS_MIN_MB}-${PGLITE_SHARED_BUFFERS_MAX_MB})`,
    description:
      "The embedded PGlite's shared buffer pool in MB. Each start clears it (about 3 ms per MB), so a small database starts with a small pool.",
    parse: optionalWholeNumberIn(1, 1024, ' of MB'),
  },
  WEB_ROOT: { default: './dist/web', description: 'The built web app the server serves (npm run build:web).', parse: folder('./dist/web') },
  LOG_LEVEL: { default: 'info', description: `One of ${LOG_LEVELS.join(', ')}. Logs are JSON lines on stdout.`, parse: logLevel },
  EMBED_ORIGINS: {
    default: '(none)',
    description:
      "Comma-separated extra origins allowed to frame the portal (CSP frame-ancestors), added to the provider's configured ones, e.g. https://www.example.com.",
    parse: embedOrigins,
  },
  PUBLIC_URL: {
    default: 'http://localhost:PORT',
    description: 'The address people use to reach the portal; used in printed links and e-mails. Must be https with NODE_ENV=production.',
    parse: publicUrl,
  },
  SMTP_HOST: {
    default: '(unset: no e-mail transport)',
    description: 'SMTP server for outgoing mail (required with NODE_ENV=production: patients need their mail).',
    parse: smtpHost,
  },
  SMTP_PORT: {
    default: '587',
    description: 'SMTP port; 465 uses implicit TLS, others STARTTLS.',
    parse: wholeNumberIn(1, 65535, 587),
    // Its number is checked even alone, as it always was; the other SMTP_* only with SMTP_HOST.
    with: { name: 'SMTP_HOST', alone: 'checked' },
  },
  SMTP_USER: {
    default: '(none)',
    description: 'SMTP user name (set together with SMTP_PASSWORD).',
    parse: text,
    with: { name: 'SMTP_HOST', alone: 'reported' },
  },
  SMTP_PASSWORD: {
    default: '(none)',
    description: 'SMTP password (set together with SMTP_USER).',
    parse: text,
    with: { name: 'SMTP_HOST', alone: 'reported' },
  },
  SMTP_FROM: {
    default: '(required with SMTP_HOST)',
    description: 'Sender address, e.g. "Portal <portal@example.com>".',
    parse: smtpFrom,
    with: { name: 'SMTP_HOST', alone: 'reported' },
  },
  OUTBOX_POLL_MS: {
    default: '1000',
    description: 'How often (ms, 100 to 600000) the mail outbox is checked for mail to send.',
    parse: wholeNumberIn(100, 600_000, 1000, ' of milliseconds'),
  },
  OUTBOX_MAX_ATTEMPTS: {
    default: '10',
    description: "Send attempts (1 to 100, backing off from 30 s to 1 h) before a mail is kept as 'failed'.",
    parse: wholeNumberIn(1, 100, 10),
  },
  OUTBOX_KEEP_SENT_DAYS: {
    default: '30',
    description: 'Days (1 to 3650) a sent mail stays in the outbox before it is deleted; failed mail is kept.',
    parse: wholeNumberIn(1, 3650, 30, ' of days'),
  },
  MAIL_DEV_OUTBOX_ENABLED: {
    default: '(unset: on only while the demo provider is served, without SMTP_HOST, SMS_PROVIDER_URL or NODE_ENV=production)',
    description:
      'true shows queued and sent mail at /dev/outbox and /api/dev/outbox; false hides it. It answers only requests from this machine (loopback, no proxy headers). true is refused with SMTP_HOST, SMS_PROVIDER_URL or NODE_ENV=production: it shows names, links and one-time codes.',
    parse: devOutbox,
  },
  NODE_ENV: {
    default: '(unset)',
    description:
      'Only "production" is read: the server then refuses to start without SESSION_SECRET, an https PUBLIC_URL and SMTP_HOST, and keeps the development outbox off.',
    parse: production,
  },
  TRUST_PROXY: {
    default: 'false (trust no proxy)',
    description:
      'Comma-separated IP addresses or CIDR ranges of the reverse proxies or load balancers in front of the server (or loopback, linklocal, uniquelocal). Only for a request whose direct peer is one of them is the client address taken from X-Forwarded-For; sign-in and booking limits count per address. true and * are refused: anyone could then claim any address.',
    parse: trustProxy,
  },
  SOURCE_MAPS: {
    default: 'off',
    description:
      "public serves the web build's *.map files (they reveal the source); off answers 404 for them. The build always writes them, for error-reporting uploads.",
    parse: sourceMapsPublic,
  },
  SMS_PROVIDER_URL: {
    default: '(unset: no SMS; one-time passwords by e-mail only)',
    description:
      'SMS provider API: the server POSTs JSON {to, text} here with SMS_PROVIDER_API_KEY as a bearer token. https, or http to localhost/127.0.0.1.',
    parse: smsUrl,
  },
  SMS_PROVIDER_API_KEY: {
    default: '(required with SMS_PROVIDER_URL)',
    description: 'Bearer token for the SMS provider API.',
    parse: smsApiKey,
    with: { name: 'SMS_PROVIDER_URL', alone: 'reported' },
  },
  SMS_INBOUND_TOKEN_SHA256: {
    default: '(unset: SMS replies are not taken; POST /api/sms/inbound answers 404)',
    description:
      "Comma-separated sha256 hex digests of the bearer tokens the SMS provider's inbound webhook sends with each SMS a patient sends (POST /api/sms/inbound, JSON {messageId, from, text}). With it and SMS_PROVIDER_URL, SMS reminders ask for a reply: YES confirms, NO cancels.",
    parse: tokenDigests('SMS_INBOUND_TOKEN_SHA256'),
  },
  SMS_DEFAULT_COUNTRY: {
    default: 'AU',
    description:
      'The country (ISO 3166 two letters) of phone numbers written without a + country code: a reply from +61412345678 answers the reminder sent to 0412 345 678.',
    parse: smsDefaultCountry,
  },
  RIS_WEBHOOK_URL: {
    default: '(unset: a demo RIS receiver outside production; in production check-ins wait queued)',
    description:
      "The clinic's RIS: check-in hand-offs are POSTed here as JSON signed with RIS_WEBHOOK_SECRET (X-Portal-Timestamp, X-Portal-Signature v1=HMAC-SHA256 of timestamp.body) and retried with back-off. https, or http to localhost/127.0.0.1.",
    parse: risWebhookUrl,
  },
  RIS_WEBHOOK_SECRET: {
    default: '(required with RIS_WEBHOOK_URL)',
    description: "At least 32 characters; the key of the hand-offs' HMAC signature, shared with the RIS.",
    parse: risWebhookSecret,
    with: { name: 'RIS_WEBHOOK_URL', alone: 'reported' },
  },
  HL7_RIS_ADDRESS: {
    default: '(unset: no HL7 messages are sent)',
    description:
      "host:port of the RIS's HL7 v2 MLLP listener: each booking (SIU^S12) and cancellation (SIU^S15) is queued in its own transaction and sent in order per appointment, retried until acknowledged; check-ins too with RIS_CHECK_IN=hl7 (docs/integration/hl7.md).",
    parse: hl7RisAddress,
  },
  HL7_RIS_APPLICATION: {
    default: 'RIS',
    description: "MSH-5 of the HL7 messages: the RIS interface's application name.",
    parse: hl7Name,
    with: { name: 'HL7_RIS_ADDRESS', alone: 'reported' },
  },
  HL7_RIS_FACILITY: {
    default: '(empty)',
    description: 'MSH-6 of the HL7 messages: the receiving facility.',
    parse: hl7Name,
    with: { name: 'HL7_RIS_ADDRESS', alone: 'reported' },
  },
  HL7_SENDING_FACILITY: {
    default: '(empty)',
    description: 'MSH-4 of the HL7 messages: the provider, as the RIS knows it.',
    parse: hl7Name,
    with: { name: 'HL7_RIS_ADDRESS', alone: 'reported' },
  },
  HL7_LISTEN_ADDRESS: {
    default: '(unset: no HL7 is taken from the RIS; outside production the demo RIS reports to a listener on 127.0.0.1)',
    description:
      "ip:port of the portal's own HL7 v2 MLLP listener for the RIS: ORU^R01 reports become patients' results, SIU^S13/S14 move and SIU^S15/S17 cancel appointments (the patient is mailed); each is answered AA, AE or AR (docs/integration/hl7.md#from-the-ris).",
    parse: hl7ListenAddress,
  },
  HL7_LISTEN_ALLOW: {
    default: '127.0.0.1,::1',
    description:
      "The RIS's IP addresses, separated by commas: the only peers the listener talks to (MLLP has no authentication of its own). Required when HL7_LISTEN_ADDRESS is not a loopback address.",
    parse: hl7ListenAllow,
    with: { name: 'HL7_LISTEN_ADDRESS', alone: 'reported' },
  },
  HL7_RESULT_RELEASE_DAYS: {
    default: '7',
    description:
      'Days (0 to 90) after a report from the RIS was finalised (OBR-22) before its patient may read it; the referring doctor has it first.',
    parse: wholeNumberIn(0, 90, 7, ' of days'),
    with: { name: 'HL7_LISTEN_ADDRESS', alone: 'reported' },
  },
  RIS_CHECK_IN: {
    default:
      '(unset: webhook when RIS_WEBHOOK_URL is set, else hl7 when HL7_RIS_ADDRESS is, else the demo RIS receiver or, in production, queued)',
    description:
      'How check-in hand-offs reach the RIS: webhook (signed JSON to RIS_WEBHOOK_URL) or hl7 (ADT^A05 for the form, ADT^A04 for the check-in, over MLLP to HL7_RIS_ADDRESS). Each needs its destination set, except where the demo RIS stands in (outside production without RIS_WEBHOOK_URL).',
    parse: risCheckIn,
  },
  KIOSK_SILENT_MINUTES: {
    default: '5',
    description:
      'Minutes (1 to 1440) without a request or heartbeat from an enrolled kiosk before the staff kiosk page shows it as silent.',
    parse: kioskSilentMinutes,
  },
  SESSION_SECRET: {
    default: '(unset: a random secret kept in the database)',
    description:
      'At least 32 characters; keys the HMACs of one-time passwords and sign-in attempt records. Required with NODE_ENV=production, so a database copy alone cannot test codes.',
    parse: sessionSecret,
  },
  STAFF_API_TOKEN_SHA256: {
    default: '(unset: no staff API)',
    description:
      'Comma-separated sha256 hex digests of the bearer tokens staff tools use (PUT /api/booking-requests/{key}/status); only the digests are configured, never the tokens.',
    parse: tokenDigests('STAFF_API_TOKEN_SHA256'),
  },
  INTEGRATION_API_TOKEN_SHA256: {
    default: '(unset: no results delivery)',
    description:
      'Comma-separated sha256 hex digests of the bearer tokens the RIS and PACS integration uses to deliver finalised reports (POST /api/integration/results); only the digests are configured.',
    parse: tokenDigests('INTEGRATION_API_TOKEN_SHA256'),
  },
  METRICS_TOKEN_SHA256: {
    default: '(unset: no /metrics, it answers 404)',
    description:
      'Comma-separated sha256 hex digests of the bearer tokens a Prometheus scraper sends to GET /metrics (Authorization: Bearer; anything else gets 403); only the digests are configured.',
    parse: tokenDigests('METRICS_TOKEN_SHA256'),
  },
  OTEL_EXPORTER_OTLP_ENDPOINT: {
    default: '(unset: no traces; the OpenTelemetry packages are not loaded)',
    description:
      "An OpenTelemetry collector's OTLP/HTTP base URL, e.g. http://otel-collector:4318: a span per request (method, route pattern, status, request id) and per database statement (verb and table) is sent to its /v1/traces as JSON; never URLs, query strings, bodies or query parameters (docs/operations.md#traces).",
    parse: otlpEndpoint,
    unusedWith: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
  },
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: {
    default: '(unset: OTEL_EXPORTER_OTLP_ENDPOINT/v1/traces)',
    description: 'The full OTLP/HTTP traces URL, used as written; takes over from OTEL_EXPORTER_OTLP_ENDPOINT.',
    parse: otlpTracesEndpoint,
  },
  OTEL_SERVICE_NAME: {
    default: DEFAULT_SERVICE_NAME,
    description: "The traces' service.name, e.g. to tell several portals apart in one collector.",
    parse: serviceName,
  },
  MAP_TILE_URL: {
    default: "(unset: the provider's configured tile URL)",
    description:
      "Replaces the provider's clinic-map tile URL template, an http(s) URL with {z}, {x} and {y} (an on-premises tile server; the end-to-end tests' local tiles). Its origin is added to the CSP's img-src.",
    parse: fromZod(MapTilesSchema.shape.tileUrl),
  },
  IMAGE_VIEWER_URL_TEMPLATE: {
    default: "(unset: the demo provider's built-in demo viewer; other providers' images cannot be opened)",
    description:
      "The PACS viewer a patient's images open in, an https URL with {studyInstanceUid} and/or {accessionNumber}, e.g. https://pacs.example/ohif/viewer?StudyInstanceUIDs={studyInstanceUid}.",
    parse: imageViewerUrlTemplate,
  },
  IMAGE_VIEWER_PREFERENCE: {
    default: 'VIEWER',
    description: "VIEWER opens the study in the image viewer; PACS sends the patient to the provider's PACS portal (PACS_URL).",
    parse: imageViewerPreference,
  },
  PACS_URL: {
    default: '(unset)',
    description: "The provider's PACS portal (https), where IMAGE_VIEWER_PREFERENCE=PACS sends patients.",
    parse: pacsUrl,
  },
  IMAGE_REPOSITORY_SOURCES: {
    default: "(unset: only 'default', which follows IMAGE_VIEWER_PREFERENCE and PACS_URL)",
    description:
      'Further PACS archives an image link may name (repositorySource), each with its own preference: "archive=PACS@https://pacs.example/portal,research=VIEWER". A link naming an unknown source is refused.',
    parse: repositorySources,
  },
  SIGNED_LINK_KEYS: {
    default: '(unset: one key derived from the server secret)',
    description:
      'Keys of the signed image-viewer links (imsec), "id:base64secret[@retiredAt],…": the first key without retiredAt signs; a retired key still verifies for 24 hours after retiredAt, then links made with it are refused.',
    parse: signedLinkKeys,
  },
  IDENTITY_ISSUER: {
    default: '(unset: the local demo identity provider, outside production)',
    description:
      'The identity provider staff, referring doctors and IT staff sign in with, as the `iss` of its tokens, e.g. https://login.microsoftonline.com/<tenant>/v2.0 (docs/identity.md). Unset in production: staff sign-in is off.',
    parse: identityIssuer,
  },
  IDENTITY_JWKS_URI: {
    default: '(required with IDENTITY_ISSUER)',
    description: "The provider's signing keys, e.g. https://login.microsoftonline.com/<tenant>/discovery/v2.0/keys.",
    parse: identityJwksUri,
    with: ISSUER,
  },
  IDENTITY_CLIENT_ID: {
    default: '(required with IDENTITY_ISSUER)',
    description: "The portal's application (client) id at the provider.",
    parse: text,
    with: ISSUER,
  },
  IDENTITY_AUDIENCE: {
    default: 'api://IDENTITY_CLIENT_ID',
    description: "The `aud` of the access tokens the portal's API accepts (the application ID URI).",
    parse: text,
    with: ISSUER,
  },
  IDENTITY_AUTHORITY: {
    default: 'IDENTITY_ISSUER without /v2.0',
    description: "The authority the browser's MSAL signs in at (Entra ID: https://login.microsoftonline.com/<tenant id>).",
    parse: identityAuthority,
    with: ISSUER,
  },
  IDENTITY_SCOPE: {
    default: 'IDENTITY_AUDIENCE/access_as_user',
    description: 'The API scope the browser asks the access token for.',
    parse: text,
    with: ISSUER,
  },
  IDENTITY_PROTOCOL_MODE: {
    default: 'AAD for login.microsoftonline.com, else OIDC',
    description: "MSAL's protocol mode: AAD (Microsoft Entra ID) or OIDC (any other OpenID Connect provider).",
    parse: identityProtocolMode,
    with: ISSUER,
  },
  IDENTITY_ROLE_MAP: {
    default: DEFAULT_ROLE_MAP,
    description:
      'Which app roles (roles:<value>) or security groups (groups:<object id>) give which portal role: staff, admin, referrer or kioskAdmin; comma-separated.',
    parse: identityRoleMap,
  },
  DEV_IDENTITY_PORT: {
    default: '(unset: inside the portal at /dev/idp)',
    description:
      'Without IDENTITY_ISSUER and outside production, the local demo identity provider runs inside the portal on its own origin; a port (0: any free one) runs it on a server of its own instead (https, self-signed, for MSAL); off: do not start it.',
    parse: devIdentityPort,
    unusedWith: 'IDENTITY_ISSUER',
  },
  DEV_IDENTITY_RIS_CLIENT_SECRET: {
    default: '(unset: a new random secret at each start, printed)',
    description:
      "The client secret of the local demo identity provider's RIS client (client id demo-ris, client credentials only), which gets access tokens for the FHIR API (docs/integration/fhir.md).",
    parse: text,
    unusedWith: 'IDENTITY_ISSUER',
  },
  FHIR_AUDIENCE: {
    default: 'PUBLIC_URL/fhir/R4',
    description:
      "The `aud` of the access tokens the FHIR API (/fhir/R4) accepts from the identity provider; with Entra ID the application ID URI of the FHIR API's app registration. Scopes: docs/integration/fhir.md.",
    parse: text,
  },
  S3_BUCKET: {
    default: '(none: attachments are files under DATA_DIR/files)',
    description:
      'Keep uploaded documents in this S3-compatible bucket instead, so several servers on one PostgreSQL share them. Needs S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY.',
    parse: text,
  },
  S3_ENDPOINT: {
    default: '(AWS)',
    description: 'The S3-compatible endpoint URL, e.g. https://s3.example.com (MinIO, Ceph, R2...).',
    parse: text,
    with: S3,
  },
  S3_REGION: { default: 'us-east-1', description: 'The bucket region.', parse: text, with: S3 },
  S3_ACCESS_KEY_ID: { default: '(required with S3_BUCKET)', description: 'Access key id for the bucket.', parse: text, with: S3 },
  S3_SECRET_ACCESS_KEY: { default: '(required with S3_BUCKET)', description: 'Secret access key for the bucket.', parse: text, with: S3 },
  S3_FORCE_PATH_STYLE: {
    default: 'false',
    description: 'true for servers that need path-style URLs (MinIO and most self-hosted ones).',
    parse: text,
    with: S3,
    untrimmed: true,
  },
  S3_PREFIX: { default: 'attachments/', description: 'Key prefix inside the bucket.', parse: text, with: S3, untrimmed: true },
  CLAMAV_SOCKET: {
    default: '(none: uploads are not virus-scanned)',
    description:
      'ClamAV daemon to scan every upload: a unix socket path (Debian: /var/run/clamav/clamd.ctl) or tcp://host:3310. A file waits in quarantine until it is clean; while the scanner is down it stays there.',
    parse: clamavSocket,
  },
  SHUTDOWN_TIMEOUT_MS: {
    default: '10000',
    description: 'On SIGTERM/SIGINT, how long in-flight requests may take before the server closes anyway.',
    parse: wholeNumberIn(100, 600_000, 10_000, ' of milliseconds'),
  },
  APP_VERSION: {
    default: 'package.json version',
    description: 'Version shown in the footer and /api/health.',
    parse: version((context) => context.packageVersion),
  },
  APP_VERSION_HASH: {
    default: "git rev-parse --short HEAD, else 'dev'",
    description: 'Build identifier shown in the footer tooltip.',
    parse: version((context) => context.gitShortHash ?? 'dev'),
  },
});

export type VariableName = keyof typeof ENV;

/** Each variable's parsed value. */
export type Values = { [K in VariableName]: ValueOf<(typeof ENV)[K]> };

/** What the cross-variable rules see after every variable's own parse. */
export interface ParsedVariables {
  /** Each variable's trimmed text; absent when unset or blank. */
  text: Readonly<Partial<Record<VariableName, string>>>;
  /** Each variable's value; absent when its text was refused (that problem is already reported). */
  values: Readonly<Partial<Values>>;
}

/** A cross-variable rule: reports, through `problem`, what no single variable's parser can see. */
export type Rule = (parsed: ParsedVariables, problem: (name: VariableName, message: string) => void) => void;

export interface EnvVariable {
  name: string;
  default: string;
  description: string;
}

/** The table as README rows. */
export const ENV_VARIABLES: readonly EnvVariable[] = Object.entries(ENV).map(([name, variable]) => ({
  name,
  default: variable.default,
  description: variable.description,
}));
