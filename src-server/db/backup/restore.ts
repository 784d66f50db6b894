import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { redactDatabaseUrl } from '../../config';
import { openPostgres } from '../connection';
import { acquireDataDirLock } from '../data-dir-lock';
import { PGLITE_DIR_NAME } from '../open-database';
import { extractArchive } from './archive';
import { engineOf, workFolder, type BackupConfig } from './backup';
import { createBackupRepository } from './backup-repository';
import { entriesIn } from './files-part';
import { BackupInvalidError, DATABASE_PART, FILES_FOLDER, MANIFEST_NAME, parseManifest, verifyParts, type Manifest } from './manifest';
import { loadPglite, type DatabaseFacts } from './pglite-part';
import { restorePostgres } from './postgres-part';

export interface RestoreOptions {
  config: BackupConfig;
  archive: string;
  /** Replace a database or files that are there; without it a non-empty target is refused. */
  force: boolean;
  pgBin?: string | null;
}

export interface RestoreSummary extends DatabaseFacts {
  manifest: Manifest;
  /** What --force replaced, one line each; empty when the target was empty. */
  replaced: string[];
  /** Said when the archive's files could not be put back (S3 storage is configured). */
  notes: string[];
}

export class RestoreRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RestoreRefusedError';
  }
}

/** What is in the target now, one line each: what a restore would replace. */
async function occupied(config: BackupConfig): Promise<string[]> {
  const found: string[] = [];
  if (config.databaseUrl === null) {
    const folder = join(config.dataDir, PGLITE_DIR_NAME);
    if ((await entriesIn(folder)).length > 0) found.push(`the PGlite database in ${folder}`);
  } else {
    const db = await openPostgres(config.databaseUrl, redactDatabaseUrl(config.databaseUrl), { max: 1 });
    try {
      const repository = createBackupRepository(db);
      const tables = await repository.publicTables();
      if (tables.length > 0) {
        const version = await repository.schemaVersion();
        found.push(
          `${tables.length} tables in schema public of ${redactDatabaseUrl(config.databaseUrl)}${version === null ? '' : ` (schema ${version})`}`,
        );
      }
    } finally {
      await db.close();
    }
  }
  if (config.s3 === null) {
    const folder = join(config.dataDir, FILES_FOLDER);
    const entries = await entriesIn(folder);
    if (entries.length > 0) found.push(`${entries.length} stored files in ${folder}`);
  }
  return found;
}

/** Unpacks the archive into staging and checks it whole before anything is changed. */
async function readVerified(archive: string, staging: string, config: BackupConfig): Promise<Manifest> {
  if (!existsSync(archive)) throw new BackupInvalidError('the file does not exist');
  const extracted = await extractArchive(archive, staging);
  const manifest = parseManifest(await readFile(join(staging, MANIFEST_NAME), 'utf8'));
  await verifyParts(
    staging,
    manifest,
    extracted.filter((path) => path !== MANIFEST_NAME),
  );
  const engine = engineOf(config);
  if (manifest.engine !== engine) {
    const where = engine === 'postgres' ? 'PostgreSQL (DATABASE_URL is set)' : 'PGlite (DATABASE_URL is not set)';
    throw new RestoreRefusedError(
      `This backup is of a ${manifest.engine === 'pglite' ? 'PGlite' : 'PostgreSQL'} database, and the configuration restores into ${where}. ` +
        'A backup is restored into the engine it was taken from (docs/operations.md#restore).',
    );
  }
  return manifest;
}

/** Moves what is at path into the work folder (removed at the end), so the restored copy can take its place. */
async function moveAside(path: string, staging: string, name: string): Promise<void> {
  if (existsSync(path)) await rename(path, join(staging, name));
}

async function putFilesInPlace(config: BackupConfig, staging: string, manifest: Manifest, notes: string[]): Promise<void> {
  if (config.s3 !== null) {
    if (manifest.fileCount > 0) {
      notes.push(
        `The backup holds ${manifest.fileCount} stored files, but S3 storage is configured: they were not restored. ` +
          `Copy them to the bucket with your S3 tooling (tar -xf <backup> files/, then upload files/* under S3_PREFIX).`,
      );
    }
    return;
  }
  const target = join(config.dataDir, FILES_FOLDER);
  await moveAside(target, staging, 'replaced-files');
  const restored = join(staging, FILES_FOLDER);
  if (existsSync(restored)) await rename(restored, target);
  else await mkdir(target, { recursive: true, mode: 0o700 });
}

async function restoreDatabase(options: RestoreOptions, staging: string, replacing: boolean): Promise<DatabaseFacts> {
  const { config } = options;
  if (config.databaseUrl !== null) {
    await restorePostgres(config.databaseUrl, join(staging, DATABASE_PART.postgres), { replace: replacing, pgBin: options.pgBin ?? null });
    const db = await openPostgres(config.databaseUrl, redactDatabaseUrl(config.databaseUrl), { max: 1 });
    try {
      const repository = createBackupRepository(db);
      return { schemaVersion: await repository.schemaVersion(), appointments: await repository.appointmentCount() };
    } finally {
      await db.close();
    }
  }
  // Loaded and opened in the work folder first: a dump PGlite cannot read replaces nothing.
  const loaded = join(staging, 'restored-pglite');
  const facts = await loadPglite(join(staging, DATABASE_PART.pglite), loaded);
  const target = join(config.dataDir, PGLITE_DIR_NAME);
  await moveAside(target, staging, 'replaced-pglite');
  await rename(loaded, target);
  return facts;
}

/**
 * Restores an archive into the configured database and DATA_DIR/files. Refuses a non-empty target
 * without force, and any archive whose manifest or digests do not match, before changing anything.
 */
export async function restoreBackup(options: RestoreOptions): Promise<RestoreSummary> {
  const { config } = options;
  await mkdir(config.dataDir, { recursive: true });
  const lock = config.databaseUrl === null ? acquireDataDirLock(config.dataDir) : null;
  const staging = workFolder(config.dataDir, 'restore');
  try {
    const replaced = await occupied(config);
    if (replaced.length > 0 && !options.force) {
      throw new RestoreRefusedError(
        `The target is not empty: it holds ${replaced.join(' and ')}. Nothing was changed. ` +
          'Restore into an empty DATA_DIR or database, or add --force to replace what is there.',
      );
    }
    const manifest = await readVerified(options.archive, staging, config);
    const notes: string[] = [];
    const facts = await restoreDatabase(options, staging, replaced.length > 0);
    await putFilesInPlace(config, staging, manifest, notes);
    return { ...facts, manifest, replaced, notes };
  } finally {
    await rm(staging, { recursive: true, force: true });
    lock?.release();
  }
}
