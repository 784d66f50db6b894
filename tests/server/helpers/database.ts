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

/** Backends this run covers: PGlite always, PostgreSQL too when DATABASE_URL is set. */
export function backends(): Backend[] {
  return process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
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

/** A new, empty PostgreSQL database; answers its name. */
export async function createPostgresDatabase(): Promise<string> {
  const name = `portal_test_${randomBytes(6).toString('hex')}`;
  await postgresAdmin(`create database ${name}`);
  return name;
}

export async function dropPostgresDatabase(name: string): Promise<void> {
  if (!/^portal_test_[0-9a-f]+$/.test(name)) throw new Error(`refusing to drop ${name}`);
  await postgresAdmin(`drop database if exists ${name} with (force)`);
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
  const name = await createPostgresDatabase();
  try {
    const db = await openPostgres(postgresUrlFor(name), name, { max: 4 });
    if (state !== 'empty') await migrate(db);
    if (state === 'seeded') await seedDemoProvider(db, { clock: createTestClock(SEED_NOW) });
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
