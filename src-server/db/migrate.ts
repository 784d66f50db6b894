import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from './connection';

/**
 * Applies the plain SQL files in db/migrations in name order (0001_init.sql, 0002_…) at start.
 *
 * All pending files run in one transaction, recorded in schema_migrations, so a failed file
 * leaves the schema as it was. On PostgreSQL, servers starting together are serialised by a
 * transaction-scoped advisory lock: the second waits, then sees nothing left to do.
 * Each applied file's SHA-256 is kept; if an applied file is later edited the start fails,
 * because the database no longer matches what the file says (docs/migrations.md).
 */

export const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));
/** Arbitrary but fixed: the advisory lock key that serialises migrations between servers. */
const MIGRATION_LOCK_KEY = 7_242_001;

export interface MigrationFile {
  version: string;
  sql: string;
  checksum: string;
}

const MIGRATION_FILE = /^\d{4}_[a-z0-9_]+\.sql$/;

/** The versions of this server's migration files, in order, without reading them (readiness: /api/health/ready). */
export function migrationVersions(directory: string = MIGRATIONS_DIR): string[] {
  return readdirSync(directory)
    .filter((name) => MIGRATION_FILE.test(name))
    .sort()
    .map((name) => name.replace(/\.sql$/, ''));
}

export function readMigrations(directory: string = MIGRATIONS_DIR): MigrationFile[] {
  return readdirSync(directory)
    .filter((name) => MIGRATION_FILE.test(name))
    .sort()
    .map((name) => {
      const sql = readFileSync(join(directory, name), 'utf8');
      return {
        version: name.replace(/\.sql$/, ''),
        sql,
        checksum: createHash('sha256').update(sql).digest('hex'),
      };
    });
}

export class MigrationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MigrationError';
  }
}

/**
 * True when every file is applied already, unchanged: one read, without the transaction and its
 * lock (most starts). Anything else (a new database, a pending or an edited file) goes the long way.
 */
async function allApplied(db: Database, files: ReturnType<typeof readMigrations>): Promise<boolean> {
  let applied: Array<{ version: string; checksum: string }>;
  try {
    applied = await db.query('select version, checksum from schema_migrations');
  } catch {
    return false; // no schema_migrations yet
  }
  const known = new Map(applied.map((row) => [row.version, row.checksum]));
  return files.every((file) => known.get(file.version) === file.checksum);
}

/** Applies what is pending and answers the versions it applied (empty on a second run). */
export async function migrate(db: Database, directory: string = MIGRATIONS_DIR): Promise<string[]> {
  const files = readMigrations(directory);
  if (await allApplied(db, files)) return [];
  return db.transaction(async (tx) => {
    await tx.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    await tx.exec(`create table if not exists schema_migrations (
      version    text primary key,
      checksum   text not null,
      applied_at timestamptz not null default now()
    )`);
    const applied = await tx.query<{ version: string; checksum: string }>(
      'select version, checksum from schema_migrations order by version',
    );
    const known = new Map(applied.map((row) => [row.version, row.checksum]));
    for (const file of files) {
      const checksum = known.get(file.version);
      if (checksum !== undefined && checksum !== file.checksum) {
        throw new MigrationError(
          `Migration ${file.version} was changed after it was applied to this database; add a new migration file instead of editing it.`,
        );
      }
    }
    const pending = files.filter((file) => !known.has(file.version));
    for (const file of pending) {
      try {
        await tx.exec(file.sql);
      } catch (error) {
        throw new MigrationError(`Migration ${file.version} failed: ${error instanceof Error ? error.message : String(error)}`);
      }
      await tx.query('insert into schema_migrations (version, checksum) values ($1, $2)', [file.version, file.checksum]);
    }
    return pending.map((file) => file.version);
  });
}
