import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ENV_VARIABLES, loadConfigContext, parseConfig, redactDatabaseUrl, type ConfigContext } from '../../src-server/config';
import { DEFAULT_ROLE_MAPPING } from './helpers/default-role-mapping';

const context: ConfigContext = { cwd: '/srv/portal', packageVersion: '1.2.3', gitShortHash: 'abc1234' };

const SIGNED_LINK_KEYS = `k2:${'A'.repeat(43)},k1:${'B'.repeat(43)}@2026-11-01T00:00:00Z`;

describe('parseConfig', () => {
  it('gives the documented defaults for an empty environment', () => {
    expect(parseConfig({}, context)).toEqual({
      ok: true,
      config: {
        port: 3000,
        host: '0.0.0.0',
        dataDir: '/srv/portal/data',
        databaseUrl: null,
        pgliteSharedBuffersMb: null,
        webRoot: '/srv/portal/dist/web',
        logLevel: 'info',
        embedOrigins: [],
        publicUrl: 'http://localhost:3000',
        fhirAudience: 'http://localhost:3000/fhir/R4',
        devRisClientSecret: null,
        smtp: null,
        outboxPollMs: 1000,
        outboxMaxAttempts: 10,
        outboxKeepSentDays: 30,
        mailDevOutbox: 'demo',
        mapTileUrl: null,
        sms: null,
        smsInboundTokenSha256: [],
        smsDefaultCountry: 'AU',
        sessionSecret: null,
        staffApiTokenSha256: [],
        integrationApiTokenSha256: [],
        metricsTokenSha256: [],
        trustProxy: [],
        sourceMapsPublic: false,
        s3: null,
        clamavSocket: null,
        ris: null,
        hl7: null,
        hl7Inbound: null,
        risCheckIn: 'webhook',
        risDemoReceiver: true,
        kioskSilentMinutes: 5,
        imageViewer: { urlTemplate: null, preference: 'VIEWER', pacsUrl: null, signedLinkKeys: null, repositorySources: {} },
        identity: {
          kind: 'local',
          port: 'portal',
          roleMapping: DEFAULT_ROLE_MAPPING,
        },
        shutdownTimeoutMs: 10000,
        appVersion: '1.2.3',
        appVersionHash: 'abc1234',
      },
    });
  });

  it("falls back to 'dev' when there is no git hash, and treats blank values as unset", () => {
    const result = parseConfig({ PORT: '  ', LOG_LEVEL: '' }, { ...context, gitShortHash: null });
    expect(result).toMatchObject({ ok: true, config: { port: 3000, logLevel: 'info', appVersionHash: 'dev' } });
  });

  it('reads every variable when all are valid', () => {
    const result = parseConfig(
      {
        PORT: '8080',
        HOST: '127.0.0.1',
        DATA_DIR: '/var/lib/portal',
        DATABASE_URL: 'postgres://portal:secret@db.internal:5433/portal',
        PGLITE_SHARED_BUFFERS_MB: '64',
        WEB_ROOT: 'web',
        LOG_LEVEL: 'WARN',
        EMBED_ORIGINS: 'https://www.example.com, http://localhost:5173/ ,https://www.example.com',
        PUBLIC_URL: 'https://portal.example.com/',
        SMTP_HOST: 'smtp.example.com',
        SMTP_PORT: '465',
        SMTP_USER: 'mailer',
        SMTP_PASSWORD: 'pw',
        SMTP_FROM: 'Portal <portal@example.com>',
        STAFF_API_TOKEN_SHA256: ` ${'ab'.repeat(32)} ,${'CD'.repeat(32)},`,
        TRUST_PROXY: '10.0.0.0/8, 192.0.2.7',
        SOURCE_MAPS: 'public',
        IDENTITY_ISSUER: 'https://login.microsoftonline.com/tenant-id/v2.0',
        IDENTITY_JWKS_URI: 'https://login.microsoftonline.com/tenant-id/discovery/v2.0/keys',
        IDENTITY_CLIENT_ID: 'portal-client',
        IDENTITY_AUDIENCE: 'api://portal-api',
        IDENTITY_ROLE_MAP: 'roles:Portal.Staff=staff,groups:g-1=admin,groups:g-1=kioskAdmin',
        SHUTDOWN_TIMEOUT_MS: '2500',
        APP_VERSION: '2.0.0-rc.1',
        APP_VERSION_HASH: 'deadbee',
        S3_BUCKET: 'portal-files',
        S3_ENDPOINT: 'https://s3.example.com',
        S3_REGION: 'eu-central-1',
        S3_ACCESS_KEY_ID: 'key-id',
        S3_SECRET_ACCESS_KEY: 'key-secret',
        S3_FORCE_PATH_STYLE: 'true',
        S3_PREFIX: 'portal/',
        CLAMAV_SOCKET: '/var/run/clamav/clamd.ctl',
        RIS_WEBHOOK_URL: 'https://ris.example.com/portal/check-in',
        RIS_WEBHOOK_SECRET: 'ris-secret-0123456789abcdef0123456789',
        HL7_RIS_ADDRESS: 'ris.example.internal:2575',
        RIS_CHECK_IN: 'hl7',
        HL7_RIS_APPLICATION: 'KARISMA',
        HL7_RIS_FACILITY: 'DEMO RAD',
        HL7_SENDING_FACILITY: 'Demo Radiology',
        HL7_LISTEN_ADDRESS: '10.0.0.5:2576',
        HL7_LISTEN_ALLOW: '10.0.0.21, 10.0.0.22',
        HL7_RESULT_RELEASE_DAYS: '3',
        IMAGE_VIEWER_URL_TEMPLATE: 'https://pacs.example.com/ohif/viewer?StudyInstanceUIDs={studyInstanceUid}',
        IMAGE_VIEWER_PREFERENCE: 'PACS',
        PACS_URL: 'https://pacs.example.com/',
        SIGNED_LINK_KEYS,
      },
      context,
    );
    expect(result).toEqual({
      ok: true,
      config: {
        port: 8080,
        host: '127.0.0.1',
        dataDir: '/var/lib/portal',
        databaseUrl: 'postgres://portal:secret@db.internal:5433/portal',
        pgliteSharedBuffersMb: 64,
        webRoot: '/srv/portal/web',
        logLevel: 'warn',
        embedOrigins: ['https://www.example.com', 'http://localhost:5173'],
        publicUrl: 'https://portal.example.com',
        fhirAudience: 'https://portal.example.com/fhir/R4',
        devRisClientSecret: null,
        smtp: {
          host: 'smtp.example.com',
          port: 465,
          secure: true,
          auth: { user: 'mailer', password: 'pw' },
          from: 'Portal <portal@example.com>',
        },
        outboxPollMs: 1000,
        outboxMaxAttempts: 10,
        outboxKeepSentDays: 30,
        mailDevOutbox: 'off',
        mapTileUrl: null,
        sms: null,
        smsInboundTokenSha256: [],
        smsDefaultCountry: 'AU',
        sessionSecret: null,
        staffApiTokenSha256: ['ab'.repeat(32), 'cd'.repeat(32)],
        integrationApiTokenSha256: [],
        metricsTokenSha256: [],
        trustProxy: ['10.0.0.0/8', '192.0.2.7'],
        sourceMapsPublic: true,
        s3: {
          bucket: 'portal-files',
          endpoint: 'https://s3.example.com',
          region: 'eu-central-1',
          accessKeyId: 'key-id',
          secretAccessKey: 'key-secret',
          forcePathStyle: true,
          prefix: 'portal/',
        },
        clamavSocket: '/var/run/clamav/clamd.ctl',
        ris: { url: 'https://ris.example.com/portal/check-in', secret: 'ris-secret-0123456789abcdef0123456789' },
        hl7: {
          host: 'ris.example.internal',
          port: 2575,
          receivingApplication: 'KARISMA',
          receivingFacility: 'DEMO RAD',
          sendingFacility: 'Demo Radiology',
        },
        hl7Inbound: { host: '10.0.0.5', port: 2576, allowedAddresses: ['10.0.0.21', '10.0.0.22'], releaseDelayDays: 3 },
        risCheckIn: 'hl7',
        risDemoReceiver: false,
        kioskSilentMinutes: 5,
        imageViewer: {
          urlTemplate: 'https://pacs.example.com/ohif/viewer?StudyInstanceUIDs={studyInstanceUid}',
          preference: 'PACS',
          pacsUrl: 'https://pacs.example.com/',
          signedLinkKeys: SIGNED_LINK_KEYS,
          repositorySources: {},
        },
        identity: {
          kind: 'external',
          issuer: 'https://login.microsoftonline.com/tenant-id/v2.0',
          jwksUri: 'https://login.microsoftonline.com/tenant-id/discovery/v2.0/keys',
          audience: 'api://portal-api',
          clientId: 'portal-client',
          roleMapping: { roles: { 'Portal.Staff': ['staff'] }, groups: { 'g-1': ['admin', 'kioskAdmin'] } },
          browser: {
            clientId: 'portal-client',
            authority: 'https://login.microsoftonline.com/tenant-id',
            scope: 'api://portal-api/access_as_user',
            protocolMode: 'AAD',
          },
        },
        shutdownTimeoutMs: 2500,
        appVersion: '2.0.0-rc.1',
        appVersionHash: 'deadbee',
      },
    });
  });

  it.each([
    [{ PORT: 'abc' }, "- PORT: must be a whole number from 1 to 65535, got 'abc'"],
    [
      { STAFF_API_TOKEN_SHA256: 'my-secret-token' },
      '- STAFF_API_TOKEN_SHA256: must be comma-separated sha256 hex digests (64 hex characters each), e.g. the output of `printf %s TOKEN | sha256sum`',
    ],
    [{ PORT: '0' }, "- PORT: must be a whole number from 1 to 65535, got '0'"],
    [{ PORT: '65536' }, "- PORT: must be a whole number from 1 to 65535, got '65536'"],
    [{ PORT: '80.5' }, "- PORT: must be a whole number from 1 to 65535, got '80.5'"],
    [{ PGLITE_SHARED_BUFFERS_MB: '0' }, "- PGLITE_SHARED_BUFFERS_MB: must be a whole number of MB from 1 to 1024, got '0'"],
    [{ PGLITE_SHARED_BUFFERS_MB: '128MB' }, "- PGLITE_SHARED_BUFFERS_MB: must be a whole number of MB from 1 to 1024, got '128MB'"],
    [{ HOST: 'my host' }, "- HOST: must be a host name or IP address, got 'my host'"],
    [{ DATABASE_URL: 'mysql://u:hunter2@h/db' }, '- DATABASE_URL: must look like postgres://user:password@host:5432/database'],
    [{ DATABASE_URL: 'not a url' }, '- DATABASE_URL: must look like postgres://user:password@host:5432/database'],
    [{ LOG_LEVEL: 'loud' }, "- LOG_LEVEL: must be one of fatal, error, warn, info, debug, trace, silent, got 'loud'"],
    [{ EMBED_ORIGINS: 'example.com' }, "- EMBED_ORIGINS: 'example.com' is not an http(s) origin such as https://www.example.com (no path)"],
    [
      { EMBED_ORIGINS: 'https://ok.example, https://a.example/page' },
      "- EMBED_ORIGINS: 'https://a.example/page' is not an http(s) origin such as https://www.example.com (no path)",
    ],
    [
      { EMBED_ORIGINS: 'javascript:alert(1)' },
      "- EMBED_ORIGINS: 'javascript:alert(1)' is not an http(s) origin such as https://www.example.com (no path)",
    ],
    [{ PUBLIC_URL: 'ftp://portal' }, "- PUBLIC_URL: must be an http(s) URL such as https://portal.example.com, got 'ftp://portal'"],
    [{ SMTP_PORT: '25' }, '- SMTP_PORT: is set but SMTP_HOST is not; set SMTP_HOST too or unset it'],
    [{ SMTP_HOST: 'smtp.example.com' }, '- SMTP_FROM: is required when SMTP_HOST is set, e.g. "Portal <portal@example.com>"'],
    [
      { SMTP_HOST: 'smtp.example.com', SMTP_FROM: 'portal@example.com', SMTP_USER: 'u' },
      '- SMTP_PASSWORD: set SMTP_USER and SMTP_PASSWORD together, or neither',
    ],
    [
      { SMTP_HOST: 'smtp.example.com', SMTP_FROM: 'nobody' },
      `- SMTP_FROM: must be an e-mail address, optionally with a name: "Portal <portal@example.com>", got 'nobody'`,
    ],
    [{ SHUTDOWN_TIMEOUT_MS: '-1' }, "- SHUTDOWN_TIMEOUT_MS: must be a whole number of milliseconds from 100 to 600000, got '-1'"],
    [{ APP_VERSION: 'v 1' }, "- APP_VERSION: must be 1 to 64 letters, digits, '.', '+', '-' or '_', got 'v 1'"],
  ])('rejects %j with a clear line', (env, line) => {
    const result = parseConfig(env, context);
    expect(result).toEqual({ ok: false, problems: [line] });
  });

  it('reports every bad value at once, one line per problem', () => {
    const result = parseConfig({ PORT: 'x', LOG_LEVEL: 'y', SHUTDOWN_TIMEOUT_MS: 'z' }, context);
    expect(result.ok).toBe(false);
    expect(result.ok ? [] : result.problems).toHaveLength(3);
  });

  it('refuses an HL7 address that is not host:port and header names with HL7 delimiters', () => {
    for (const [name, value] of [
      ['HL7_RIS_ADDRESS', 'ris.example.internal'],
      ['HL7_RIS_ADDRESS', 'ris.example.internal:99999'],
      ['HL7_RIS_ADDRESS', 'mllp://ris:2575'],
      ['HL7_RIS_APPLICATION', 'RIS^2'],
      ['HL7_SENDING_FACILITY', 'A|B'],
    ]) {
      const result = parseConfig({ HL7_RIS_ADDRESS: 'ris:2575', [name as string]: value }, context);
      expect(result.ok ? [] : result.problems, `${name}=${value}`).toEqual([expect.stringContaining(name as string)]);
    }
  });

  it('refuses a listener address that is not ip:port, an allow-list that is not IP addresses, and a listener beyond this machine without one', () => {
    const problems = (env: Record<string, string>) => {
      const result = parseConfig(env, context);
      return result.ok ? [] : result.problems;
    };
    for (const value of ['ris.example.internal:2576', '10.0.0.5', '10.0.0.5:70000', 'mllp://10.0.0.5:2576'])
      expect(problems({ HL7_LISTEN_ADDRESS: value }), value).toEqual([expect.stringContaining('HL7_LISTEN_ADDRESS')]);
    expect(problems({ HL7_LISTEN_ADDRESS: '10.0.0.5:2576', HL7_LISTEN_ALLOW: '10.0.0.21,ris.example' })).toEqual([
      expect.stringContaining("'ris.example' is not one"),
    ]);
    expect(problems({ HL7_LISTEN_ADDRESS: '0.0.0.0:2576' })).toEqual([expect.stringMatching(/HL7_LISTEN_ALLOW.*is required/)]);
    expect(problems({ HL7_LISTEN_ADDRESS: '127.0.0.1:2576', HL7_RESULT_RELEASE_DAYS: '91' })).toEqual([
      expect.stringContaining('HL7_RESULT_RELEASE_DAYS'),
    ]);
    const loopback = parseConfig({ HL7_LISTEN_ADDRESS: '[::1]:2576' }, context);
    expect(loopback.ok && loopback.config.hl7Inbound).toEqual({
      host: '::1',
      port: 2576,
      allowedAddresses: ['127.0.0.1', '::1'],
      releaseDelayDays: 7,
    });
  });

  it('never repeats a database password in a message', () => {
    const result = parseConfig({ DATABASE_URL: 'mysql://user:hunter2@host/db' }, context);
    expect(JSON.stringify(result)).not.toContain('hunter2');
    expect(redactDatabaseUrl('postgres://user:hunter2@db.example:6543/portal')).toBe('postgres://db.example:6543/portal');
    expect(redactDatabaseUrl('postgres://db.example/portal')).toBe('postgres://db.example:5432/portal');
  });

  it('is pure: the same input gives the same answer, and the input is not changed', () => {
    const env = Object.freeze({ PORT: '4000', EMBED_ORIGINS: 'https://a.example' });
    expect(parseConfig(env, context)).toEqual(parseConfig(env, context));
  });
});

describe('ENV_VARIABLES', () => {
  it('documents every variable the server reads and nothing else', () => {
    // Record which names parseConfig looks up, with SMTP_HOST set so the SMTP branch runs too.
    const looked = new Set<string>();
    const env = new Proxy<Record<string, string | undefined>>(
      {
        SMTP_HOST: 'smtp.example.com',
        SMTP_FROM: 'a@example.com',
        S3_BUCKET: 'portal-files',
        S3_ACCESS_KEY_ID: 'id',
        S3_SECRET_ACCESS_KEY: 's',
      },
      {
        get(target, name) {
          if (typeof name === 'string') looked.add(name);
          return typeof name === 'string' ? target[name] : undefined;
        },
      },
    );
    expect(parseConfig(env, context).ok).toBe(true);
    expect(new Set(ENV_VARIABLES.map((variable) => variable.name))).toEqual(looked);
    for (const variable of ENV_VARIABLES) {
      expect(variable.default, variable.name).not.toBe('');
      expect(variable.description.length, variable.name).toBeGreaterThan(10);
    }
  });
});

describe('loadConfigContext', () => {
  it('reads the package version and a git hash (or null outside git)', () => {
    const root = new URL('../../', import.meta.url).pathname;
    const manifest: unknown = JSON.parse(readFileSync(`${root}package.json`, 'utf8'));
    const loaded = loadConfigContext(root);
    expect(manifest).toMatchObject({ version: loaded.packageVersion });
    expect(loaded.gitShortHash === null || /^[0-9a-f]{4,}$/.test(loaded.gitShortHash)).toBe(true);
  });
});
