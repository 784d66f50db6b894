import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, existsSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createPglite, openPostgres, pgliteDatabase, type Database } from '../../../src-server/db/connection';
import { migrate } from '../../../src-server/db/migrate';
import { seedDemoProvider } from '../../../src-server/db/seed/seed';
import { createTestClock } from '../../../src-server/platform/clock';

/**
 * A real database per test file (no mocked database: the SQL under test is the SQL that ships).
 *
 * PGlite: creating one runs initdb (seconds), so an empty, a migrated and a seeded database are
 * each built once and kept as data-directory dumps in the temp folder, keyed by a hash of
 * everything that shapes them (migrations, seed code, demo provider files, PGlite version).
 * Every test file then loads its own copy, which takes well under a second.
 *
 * PostgreSQL (when DATABASE_URL is set): each test file gets a fresh database
 * portal_test_<random>, migrated (and seeded) the real way, dropped at the end.
 */

export type Backend = 'pglite' | 'postgres';
export type DatabaseState = 'empty' | 'migrated' | 'seeded';

/** The instant the shared seeded template was seeded at; tests that need "now" use this clock. */
export const SEED_NOW = '2026-03-10T01:00:00.000Z';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** The backends TEST_BACKENDS names ("pglite", "postgres" or both, comma-separated); null when it is not set. */
export function requestedBackends(): Backend[] | null {
  const wanted = process.env.TEST_BACKENDS?.split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  if (!wanted || wanted.length === 0) return null;
  const unknown = wanted.filter((name) => name !== 'pglite' && name !== 'postgres');
  if (unknown.length > 0) throw new Error(`TEST_BACKENDS: unknown backend ${unknown.join(', ')} (pglite or postgres)`);
  return wanted as Backend[];
}

/**
 * Backends this run covers: PGlite always, PostgreSQL too when DATABASE_URL is set. TEST_BACKENDS
 * narrows that: CI runs the server suites on PGlite with one Node.js release and on PostgreSQL with
 * the other (scripts/test-all.mjs), so each database and each release is covered once without
 * running everything four times.
 */
export function backends(): Backend[] {
  const available: Backend[] = process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
  const wanted = requestedBackends();
  if (!wanted) return available;
  if (wanted.includes('postgres') && !process.env.DATABASE_URL)
    throw new Error('TEST_BACKENDS names postgres, but DATABASE_URL is not set');
  return available.filter((backend) => wanted.includes(backend));
}

function listFiles(directory: string): string[] {
  if (!existsSync(directory)) return [];
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    return entry.isDirectory() ? listFiles(path) : [path];
  });
}

function templateKey(): string {
  const hash = createHash('sha256');
  const pgliteManifest = join(ROOT, 'node_modules/@electric-sql/pglite/package.json');
  const inputs = [
    ...listFiles(join(ROOT, 'src-server/db')),
    ...listFiles(join(ROOT, 'src-server/platform')),
    ...listFiles(join(ROOT, 'src-contract')),
    ...listFiles(join(ROOT, 'resources/demo-provider')),
    fileURLToPath(import.meta.url),
    pgliteManifest,
  ].sort();
  for (const file of inputs) hash.update(relative(ROOT, file)).update('\0').update(readFileSync(file)).update('\0');
  hash.update(SEED_NOW);
  return hash.digest('hex').slice(0, 16);
}

const TEMPLATE_DIR = join(tmpdir(), 'portal-server-test-templates');
let key: string | null = null;

async function buildTemplate(state: DatabaseState): Promise<Blob> {
  const pglite = await createPglite({});
  const db = pgliteDatabase(pglite);
  if (state !== 'empty') await migrate(db);
  if (state === 'seeded') await seedDemoProvider(db, { clock: createTestClock(SEED_NOW) });
  const dump = await pglite.dumpDataDir('none');
  await db.close();
  return dump;
}

/** The dump of a PGlite in the given state, built on first use in this or any earlier run. */
async function pgliteTemplate(state: DatabaseState): Promise<Blob> {
  key ??= templateKey();
  const path = join(TEMPLATE_DIR, `${key}-${state}.tar`);
  if (existsSync(path)) return new Blob([readFileSync(path)]);
  const dump = await buildTemplate(state);
  mkdirSync(TEMPLATE_DIR, { recursive: true });
  // Write then rename: a parallel worker never reads a half-written template.
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(temporary, new Uint8Array(await dump.arrayBuffer()));
  renameSync(temporary, path);
  // Keep the folder from growing with every edit of the schema or seed.
  for (const name of readdirSync(TEMPLATE_DIR)) {
    const other = join(TEMPLATE_DIR, name);
    if (!name.startsWith(key) && Date.now() - statSync(other).mtimeMs > 60 * 60 * 1000) rmSync(other, { force: true });
  }
  return dump;
}

export interface TestDatabase {
  db: Database;
  backend: Backend;
  /** Closes the connection and, on PostgreSQL, drops the database. */
  destroy(): Promise<void>;
}

function adminUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is not set');
  return url;
}

/** A connection string for another database on the DATABASE_URL server. */
export function postgresUrlFor(database: string): string {
  const url = new URL(adminUrl());
  url.pathname = `/${database}`;
  return url.toString();
}

/** Runs one statement on the DATABASE_URL database (create/drop database). */
export async function postgresAdmin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl() });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** A new PostgreSQL database, empty or a copy of `template`; answers its name. */
export async function createPostgresDatabase(template: string | null = null): Promise<string> {
  const name = `portal_test_${randomBytes(6).toString('hex')}`;
  await postgresAdmin(template ? `create database ${name} template ${template}` : `create database ${name}`);
  return name;
}

export async function dropPostgresDatabase(name: string): Promise<void> {
  if (!/^portal_test_[0-9a-f]+$/.test(name)) throw new Error(`refusing to drop ${name}`);
  await postgresAdmin(`drop database if exists ${name} with (force)`);
}

/**
 * The PostgreSQL database a test database in this state is copied from (CREATE DATABASE … TEMPLATE,
 * a copy of its files: about 0.2 s against 2.4 s to migrate and seed). Built once per server and
 * template key, under an advisory lock so that parallel workers and runs build it once; built under
 * another name and renamed when complete, so a run that stops half way leaves no half template.
 * Like the PGlite dumps they stay for later runs (a changed key builds new ones).
 */
async function postgresTemplate(state: Exclude<DatabaseState, 'empty'>): Promise<string> {
  key ??= templateKey();
  const name = `portal_tpl_${key}_${state}`;
  const client = new pg.Client({ connectionString: adminUrl() });
  await client.connect();
  try {
    await client.query(`select pg_advisory_lock(hashtext('portal_tpl'))`);
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) {
      const building = `${name}_building`;
      await client.query(`drop database if exists ${building} with (force)`);
      await client.query(`create database ${building}`);
      const db = await openPostgres(postgresUrlFor(building), building, { max: 2 });
      try {
        await migrate(db);
        if (state === 'seeded') await seedDemoProvider(db, { clock: createTestClock(SEED_NOW) });
      } finally {
        await db.close();
      }
      await client.query(`alter database ${building} rename to ${name}`);
    }
  } finally {
    await client.query(`select pg_advisory_unlock(hashtext('portal_tpl'))`).catch(() => undefined);
    await client.end();
  }
  return name;
}

/**
 * A database of its own for one test file.
 * @param state - empty (no tables), migrated, or seeded with the demo provider at SEED_NOW.
 */
export async function createTestDatabase(backend: Backend, state: DatabaseState): Promise<TestDatabase> {
  if (backend === 'pglite') {
    const pglite = await createPglite({ loadDataDir: await pgliteTemplate(state) });
    const db = pgliteDatabase(pglite);
    return { db, backend, destroy: () => db.close() };
  }
  const template = state === 'empty' ? null : await postgresTemplate(state);
  const name = await createPostgresDatabase(template);
  try {
    const db = await openPostgres(postgresUrlFor(name), name, { max: 4 });
    return {
      db,
      backend,
      destroy: async () => {
        await db.close();
        await dropPostgresDatabase(name);
      },
    };
  } catch (error) {
    await dropPostgresDatabase(name);
    throw error;
  }
}
