import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { buildServer, type ServerDeps } from '../../../src-server/app';
import { parseConfig, type Config } from '../../../src-server/config';
import type { Database } from '../../../src-server/db/connection';
import { createTestClock, type Clock } from '../../../src-server/platform/clock';
import type { LogDestination } from '../../../src-server/platform/logger';
import { noTransportMailer, type Mailer } from '../../../src-server/platform/mailer';
import { configuredStorage } from '../../../src-server/platform/storage';
import { configuredScanner } from '../../../src-server/platform/virus-scan';
import { SEED_NOW } from './database';

/**
 * Builds the real server for a test: the production buildServer (no mocks) with a test
 * configuration, a test clock and a captured log, on a real database from database.ts.
 */

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** The configuration tests run with, made by the real parser from a test environment. */
export function testConfig(env: Record<string, string> = {}, cwd: string = ROOT): Config {
  const result = parseConfig(
    { LOG_LEVEL: 'silent', APP_VERSION: '9.8.7', APP_VERSION_HASH: 'abc1234', ...env },
    { cwd, packageVersion: '0.0.0-test', gitShortHash: null },
  );
  if (!result.ok) throw new Error(`test configuration is invalid:\n${result.problems.join('\n')}`);
  return result.config;
}

/** An asset name like the web build's hashed ones. */
export const FIXTURE_ASSET = 'assets/index-Ab12Cd34.js';
export const FIXTURE_ASSET_BODY = 'console.log("portal fixture asset");\n';

/**
 * A web root like dist/web built from the real template src-web/index.html (so the HTML contract
 * is checked against the file the web build uses), plus one hashed asset and robots.txt.
 */
export function createWebRoot(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'portal-web-root-'));
  const template = readFileSync(join(ROOT, 'src-web/index.html'), 'utf8').replace(
    /<script type="module" src="[^"]*"><\/script>/,
    `<script type="module" crossorigin src="/${FIXTURE_ASSET}"></script>`,
  );
  writeFileSync(join(dir, 'index.html'), template);
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, FIXTURE_ASSET), FIXTURE_ASSET_BODY);
  writeFileSync(join(dir, 'robots.txt'), 'User-agent: *\nAllow: /\n');
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Collects the server's JSON log lines. */
export function createLogCollector(): LogDestination & { lines: string[]; text(): string } {
  const lines: string[] = [];
  return {
    lines,
    write(line: string) {
      lines.push(line);
    },
    text: () => lines.join(''),
  };
}

export interface TestServerOptions {
  db: Database;
  config?: Config;
  /** The configuration, made once the app's DATA_DIR exists; instead of config. */
  configFor?: (dataDir: string) => Config;
  clock?: Clock;
  mailer?: Mailer;
  log?: LogDestination;
  logLevel?: Config['logLevel'];
  /** Staff sign-in against a test identity provider (tests/server/modules/staff-access/identity-kit.ts). */
  identity?: ServerDeps['identity'];
}

export interface TestServer {
  app: FastifyInstance;
  dataDir: string;
  close(): Promise<void>;
}

/** The real proof-of-work check with little work, so a test solves one in milliseconds. */
export const TEST_CAPTCHA_WORK = { cost: 10, minCounter: 5, maxCounter: 50 };

/** buildServer on the given database; close() closes the app and removes its data folder, not the database. */
export async function buildTestServer(options: TestServerOptions): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-data-'));
  const config = options.config ?? options.configFor?.(dataDir) ?? testConfig({ DATA_DIR: dataDir });
  const app = await buildServer({
    db: options.db,
    clock: options.clock ?? createTestClock(SEED_NOW),
    config,
    mailer: options.mailer ?? noTransportMailer,
    storage: configuredStorage(config),
    scanner: configuredScanner(config),
    logger: {
      level: options.logLevel ?? (options.log === undefined ? 'silent' : 'info'),
      ...(options.log === undefined ? {} : { stream: options.log }),
    },
    captchaWork: TEST_CAPTCHA_WORK,
    ...(options.identity === undefined ? {} : { identity: options.identity }),
  });
  return {
    app,
    dataDir,
    close: async () => {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
