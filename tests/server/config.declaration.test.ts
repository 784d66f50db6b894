import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENV, ENV_VARIABLES, parseConfig, type ConfigContext } from '../../src-server/config';
import { Refused, type Variable } from '../../src-server/config-variable';

// The declaration table (src-server/config-env.ts): every variable's README text and parser in one
// row, so a variable cannot be parsed without being declared, nor declared without being parsed.

const context: ConfigContext = { cwd: '/srv/portal', packageVersion: '1.2.3', gitShortHash: 'abc1234' };
const SERVER = new URL('../../src-server/', import.meta.url).pathname;
const ROWS: [string, Variable<unknown>][] = Object.entries(ENV);
const declared = new Set(ROWS.map(([name]) => name));

/** The names parseConfig looks up in `env`. */
function namesRead(values: Record<string, string>): Set<string> {
  const looked = new Set<string>();
  const env = new Proxy<Record<string, string | undefined>>(values, {
    get(target, name) {
      if (typeof name === 'string') looked.add(name);
      return typeof name === 'string' ? target[name] : undefined;
    },
  });
  parseConfig(env, context);
  return looked;
}

function* sourceFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sourceFiles(path);
    else if (name.endsWith('.ts')) yield path;
  }
}

describe('the configuration declaration', () => {
  it('reads every declared variable, and only those, whatever is set', () => {
    expect(namesRead({})).toEqual(declared);
    const everything = Object.fromEntries([...declared].map((name) => [name, 'x']));
    expect(namesRead(everything)).toEqual(declared);
  });

  it('declares every name the server code reads from an environment', () => {
    const reads = /\bread\(env, '([A-Z0-9_]+)'\)|\benv\.([A-Z][A-Z0-9_]+)\b|\benv\[['"]([A-Z][A-Z0-9_]+)['"]\]/g;
    const found = new Set<string>();
    const undeclared: string[] = [];
    for (const file of sourceFiles(SERVER)) {
      // A development tool with a command of its own (DEV_IDENTITY_TLS and all), not the server.
      if (file.endsWith('dev-identity/start.ts')) continue;
      for (const match of readFileSync(file, 'utf8').matchAll(reads)) {
        const name = match[1] ?? match[2] ?? match[3] ?? '';
        found.add(name);
        if (!declared.has(name)) undeclared.push(`${relative(SERVER, file)}: ${name}`);
      }
    }
    expect(undeclared).toEqual([]);
    // The platform's own settings parsers are scanned too (not a vacuous pass).
    expect([...found]).toEqual(expect.arrayContaining(['S3_BUCKET', 'S3_PREFIX', 'CLAMAV_SOCKET']));
  });

  it('gives each variable a README default, a description and a parser that answers for the unset case', () => {
    for (const [name, variable] of ROWS) {
      expect(variable.default, name).not.toBe('');
      expect(variable.description.length, name).toBeGreaterThan(10);
      expect(typeof variable.parse, name).toBe('function');
      expect(variable.parse(undefined, context), name).not.toBeInstanceOf(Refused);
    }
    expect(ENV_VARIABLES.map((variable) => variable.name)).toEqual([...declared]);
  });

  it('links a variable only to declared ones', () => {
    for (const [, variable] of ROWS) {
      const links = [variable.with?.name, variable.unusedWith].filter((name) => name !== undefined);
      for (const name of links) expect(declared.has(name), name).toBe(true);
    }
  });

  it('shows in the README the very default a number variable parses to', () => {
    const numbers = ROWS.filter(([, variable]) => typeof variable.parse(undefined, context) === 'number');
    expect(numbers.map(([name]) => name)).toEqual(
      expect.arrayContaining(['PORT', 'SMTP_PORT', 'OUTBOX_POLL_MS', 'KIOSK_SILENT_MINUTES', 'SHUTDOWN_TIMEOUT_MS']),
    );
    for (const [name, variable] of numbers) expect(variable.default, name).toBe(String(variable.parse(undefined, context)));
    expect(ENV.HOST.parse(undefined, context)).toBe(ENV.HOST.default);
    expect(ENV.LOG_LEVEL.parse(undefined, context)).toBe(ENV.LOG_LEVEL.default);
    expect(ENV.IMAGE_VIEWER_PREFERENCE.parse(undefined, context)).toBe(ENV.IMAGE_VIEWER_PREFERENCE.default);
  });
});

describe('parseConfig over the declaration', () => {
  const problems = (env: Record<string, string>): string[] => {
    const result = parseConfig(env, context);
    return result.ok ? [] : result.problems;
  };

  it("reports each variable's own problems in the table's order, then the cross-variable ones", () => {
    expect(problems({ NODE_ENV: 'production', APP_VERSION: 'v 1', PORT: 'x' })).toEqual([
      "- PORT: must be a whole number from 1 to 65535, got 'x'",
      "- APP_VERSION: must be 1 to 64 letters, digits, '.', '+', '-' or '_', got 'v 1'",
      '- SESSION_SECRET: is required with NODE_ENV=production: set it to a random value of at least 32 characters, e.g. the output of `openssl rand -hex 32`',
      '- PUBLIC_URL: is required with NODE_ENV=production: set it to the https address patients use, e.g. https://portal.example.com',
      '- SMTP_HOST: is required with NODE_ENV=production: patients need their confirmations and one-time codes; set SMTP_HOST and SMTP_FROM',
    ]);
  });

  it('reports a variable set without the one it belongs to, checking its value only where it always was', () => {
    expect(problems({ SMTP_PORT: 'x' })).toEqual([
      "- SMTP_PORT: must be a whole number from 1 to 65535, got 'x'",
      '- SMTP_PORT: is set but SMTP_HOST is not; set SMTP_HOST too or unset it',
    ]);
    expect(problems({ SMS_PROVIDER_API_KEY: 'two words' })).toEqual([
      '- SMS_PROVIDER_API_KEY: is set but SMS_PROVIDER_URL is not; set SMS_PROVIDER_URL too or unset it',
    ]);
    expect(problems({ IDENTITY_AUTHORITY: 'http://idp.example' })).toEqual([
      '- IDENTITY_AUTHORITY: is set but IDENTITY_ISSUER is not; set IDENTITY_ISSUER too or unset it',
    ]);
  });

  it('ignores the S3 variables without S3_BUCKET, and DEV_IDENTITY_PORT beside IDENTITY_ISSUER', () => {
    expect(problems({ S3_ENDPOINT: 'not a url', S3_PREFIX: '../up' })).toEqual([]);
    const external = {
      IDENTITY_ISSUER: 'https://idp.example.org',
      IDENTITY_JWKS_URI: 'https://idp.example.org/keys',
      IDENTITY_CLIENT_ID: 'c',
    };
    expect(problems({ ...external, DEV_IDENTITY_PORT: 'abc' })).toEqual([]);
  });

  it('names the first wrong S3 variable under S3_BUCKET, and keeps an empty S3_PREFIX as written (the bucket root)', () => {
    const bucket = { S3_BUCKET: 'portal-files', S3_ACCESS_KEY_ID: 'id', S3_SECRET_ACCESS_KEY: 'secret' };
    expect(problems({ ...bucket, S3_ENDPOINT: 'not a url', S3_PREFIX: '../up' })).toEqual([
      '- S3_BUCKET: S3_ENDPOINT must be a URL such as https://s3.example.com',
    ]);
    const result = parseConfig({ ...bucket, S3_PREFIX: '' }, context);
    expect(result.ok && result.config.s3?.prefix).toBe('');
  });

  it('never quotes a secret back', () => {
    const secret = 'hunter2-secret';
    const lines = problems({
      DATABASE_URL: `mysql://user:${secret}@host/db`,
      SESSION_SECRET: secret,
      SMTP_PASSWORD: secret,
      SMS_PROVIDER_URL: 'https://sms.example.com/send',
      SMS_PROVIDER_API_KEY: `${secret} x`,
      RIS_WEBHOOK_URL: 'https://ris.example.com/portal',
      RIS_WEBHOOK_SECRET: secret,
      STAFF_API_TOKEN_SHA256: secret,
      INTEGRATION_API_TOKEN_SHA256: secret,
      S3_SECRET_ACCESS_KEY: secret,
    });
    expect(lines.length).toBeGreaterThanOrEqual(7);
    expect(lines.join('\n')).not.toContain(secret);
  });
});
