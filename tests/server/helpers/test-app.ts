import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import type { ServerDeps } from '../../../src-server/app';
import type { LogLevel } from '../../../src-server/config';
import type { Database } from '../../../src-server/db/connection';
import { createTestClock, type TestClock } from '../../../src-server/platform/clock';
import { buildTestServer, createLogCollector, createWebRoot, testConfig, type TestServer } from './build-server';
import { createTestDatabase, SEED_NOW, type Backend, type DatabaseState, type TestDatabase } from './database';

/**
 * The per-file server fixture: call it in a describe body and it registers the beforeAll that
 * creates the database and builds the app, and the afterAll that closes both (and drops the
 * PostgreSQL database). Everything a file needs besides the app goes in its own hooks after this
 * call: vitest runs beforeAll hooks in order and afterAll hooks in reverse, so the app is up
 * before them and still up while they clean up.
 *
 * To cover both databases, wrap the describe in describe.each(backends()) and pass the backend.
 */

export interface TestDatabaseOptions {
  /** Default pglite. */
  backend?: Backend;
  /** Default seeded: migrated and seeded with the demo provider at SEED_NOW. */
  state?: DatabaseState;
}

export interface TestDatabaseHandle {
  readonly backend: Backend;
  /** The file's own database; readable inside hooks and tests only. */
  readonly db: Database;
}

export type LogCollector = ReturnType<typeof createLogCollector>;

export interface TestAppOptions {
  /** Default pglite. */
  backend?: Backend;
  /** Default true; false: migrated but empty. */
  seeded?: boolean;
  /** The app's clock, or the instant a new test clock starts at; default a new one at SEED_NOW. */
  clock?: TestClock | string;
  /** Environment for the real configuration parser (DATA_DIR is the app's own temp folder); a function is read in beforeAll. */
  env?: Record<string, string> | (() => Record<string, string>);
  /** Serve a web root like dist/web (WEB_ROOT); a function adds files to it before the app is built. */
  webRoot?: boolean | ((dir: string) => void);
  /** Send the app's log to `log` at this level (true: info); default silent. */
  log?: boolean | LogLevel;
  /** Staff sign-in (ServerDeps.identity); a function is read in beforeAll (after a test provider started). */
  identity?: ServerDeps['identity'] | (() => ServerDeps['identity']);
  /** Routes or hooks to add after the build and before app.ready(). */
  setup?: (app: FastifyInstance, handle: TestApp) => void | Promise<void>;
}

export interface TestApp extends TestDatabaseHandle {
  /** The production app from buildServer, ready; readable inside hooks and tests only. */
  readonly app: FastifyInstance;
  readonly clock: TestClock;
  /** The app's JSON log lines when the log option is set. */
  readonly log: LogCollector;
  /** The app's DATA_DIR. */
  readonly dataDir: string;
  /** The web root folder when the webRoot option is set. */
  readonly webRoot: string;
}

function available<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what} exists only inside this file's hooks and tests (after its beforeAll)`);
  return value;
}

/** A database of its own for this describe block, without an app. */
export function useTestDatabase(options: TestDatabaseOptions = {}): TestDatabaseHandle {
  const backend = options.backend ?? 'pglite';
  let test: TestDatabase | undefined;
  beforeAll(async () => {
    test = await createTestDatabase(backend, options.state ?? 'seeded');
  });
  afterAll(async () => {
    await test?.destroy();
  });
  return {
    backend,
    get db() {
      return available(test, 'db').db;
    },
  };
}

/** The real app on a database of its own for this describe block. */
export function useTestApp(options: TestAppOptions = {}): TestApp {
  const database = useTestDatabase({ backend: options.backend ?? 'pglite', state: options.seeded === false ? 'migrated' : 'seeded' });
  const clock = typeof options.clock === 'object' ? options.clock : createTestClock(options.clock ?? SEED_NOW);
  const log = createLogCollector();
  let server: TestServer | undefined;
  let webRoot: ReturnType<typeof createWebRoot> | undefined;

  const handle: TestApp = {
    backend: database.backend,
    get db() {
      return database.db;
    },
    get app() {
      return available(server, 'app').app;
    },
    clock,
    log,
    get dataDir() {
      return available(server, 'dataDir').dataDir;
    },
    get webRoot() {
      return available(webRoot, 'webRoot (set the webRoot option)').dir;
    },
  };

  beforeAll(async () => {
    const env = typeof options.env === 'function' ? options.env() : (options.env ?? {});
    if (options.webRoot) {
      webRoot = createWebRoot();
      if (typeof options.webRoot === 'function') options.webRoot(webRoot.dir);
    }
    const identity = typeof options.identity === 'function' ? options.identity() : options.identity;
    const logLevel = options.log === true ? 'info' : options.log === false ? undefined : options.log;
    server = await buildTestServer({
      db: database.db,
      clock,
      configFor: (dataDir) => testConfig({ DATA_DIR: dataDir, ...(webRoot ? { WEB_ROOT: webRoot.dir } : {}), ...env }),
      ...(logLevel === undefined ? {} : { log, logLevel }),
      ...(identity === undefined ? {} : { identity }),
    });
    await options.setup?.(server.app, handle);
    await server.app.ready();
  });
  afterAll(async () => {
    await server?.close();
    webRoot?.remove();
  });
  return handle;
}
