import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../../config';
import { redactDatabaseUrl } from '../../config';
import { openPostgres } from '../connection';
import { acquireDataDirLock } from '../data-dir-lock';
import { PGLITE_DIR_NAME } from '../open-database';
import { writeArchive } from './archive';
import { createBackupRepository } from './backup-repository';
import { stageFiles, storedKeys } from './files-part';
import { DATABASE_PART, describePart, FILES_FOLDER, FORMAT, FORMAT_VERSION, MANIFEST_NAME, type Engine, type Manifest } from './manifest';
import { dumpPglite, type DatabaseFacts } from './pglite-part';
import { dumpPostgres } from './postgres-part';

/** What a backup or restore needs of the configuration: where the database and the files are. */
export type BackupConfig = Pick<Config, 'databaseUrl' | 'dataDir' | 's3'>;

export interface BackupOptions {
  config: BackupConfig;
  /** The archive to write; refused when it exists. */
  output: string;
  now: Date;
  writtenBy: string;
  /** The folder of pg_dump and pg_restore when they are not on PATH. */
  pgBin?: string | null;
}

export interface BackupSummary extends DatabaseFacts {
  output: string;
  engine: Engine;
  storage: Manifest['storage'];
  fileCount: number;
  bytes: number;
}

export class BackupRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupRefusedError';
  }
}

export const engineOf = (config: BackupConfig): Engine => (config.databaseUrl === null ? 'pglite' : 'postgres');

/** A work folder inside DATA_DIR: on the same disk, so stored files are hard-linked, not copied. */
export function workFolder(dataDir: string, kind: 'backup' | 'restore'): string {
  return join(dataDir, `${kind}-work-${randomBytes(6).toString('hex')}`);
}

async function postgresFacts(databaseUrl: string): Promise<DatabaseFacts> {
  const db = await openPostgres(databaseUrl, redactDatabaseUrl(databaseUrl), { max: 1 });
  try {
    const repository = createBackupRepository(db);
    return { schemaVersion: await repository.schemaVersion(), appointments: await repository.appointmentCount() };
  } finally {
    await db.close();
  }
}

/**
 * Dumps the database, then takes the stored files. PGlite: under the DATA_DIR lock, which a
 * running server holds (DataDirLockedError). PostgreSQL: online; the dump comes first, so a file
 * uploaded meanwhile is at worst an extra file no row names.
 */
async function stageParts(options: BackupOptions, staging: string): Promise<DatabaseFacts> {
  const { config } = options;
  const filesFolder = join(config.dataDir, FILES_FOLDER);
  const withFiles = async (): Promise<void> => {
    if (config.s3 === null) await stageFiles(filesFolder, join(staging, FILES_FOLDER));
  };
  if (config.databaseUrl !== null) {
    const facts = await postgresFacts(config.databaseUrl);
    await dumpPostgres(config.databaseUrl, join(staging, DATABASE_PART.postgres), options.pgBin ?? null);
    await withFiles();
    return facts;
  }
  const lock = acquireDataDirLock(config.dataDir);
  try {
    const facts = await dumpPglite(join(config.dataDir, PGLITE_DIR_NAME), join(staging, DATABASE_PART.pglite));
    await withFiles();
    return facts;
  } finally {
    // Released before the archive is written: the server may start again while it is packed.
    lock.release();
  }
}

/** Writes one archive holding the database and, with folder storage, the stored files. */
export async function createBackup(options: BackupOptions): Promise<BackupSummary> {
  if (existsSync(options.output)) throw new BackupRefusedError(`${options.output} exists already; a backup never overwrites one.`);
  const { config } = options;
  await mkdir(config.dataDir, { recursive: true });
  const staging = workFolder(config.dataDir, 'backup');
  try {
    await mkdir(join(staging, 'database'), { recursive: true });
    const facts = await stageParts(options, staging);
    const engine = engineOf(config);
    const keys = await storedKeys(join(staging, FILES_FOLDER));
    const parts = [await describePart(staging, DATABASE_PART[engine])];
    for (const key of keys) parts.push(await describePart(staging, `${FILES_FOLDER}/${key}`));
    const manifest: Manifest = {
      format: FORMAT,
      formatVersion: FORMAT_VERSION,
      engine,
      createdAt: options.now.toISOString(),
      schemaVersion: facts.schemaVersion,
      storage: config.s3 === null ? 'folder' : 's3',
      fileCount: keys.length,
      writtenBy: options.writtenBy,
      parts,
    };
    await writeFile(join(staging, MANIFEST_NAME), `${JSON.stringify(manifest, null, 2)}\n`);
    await writeArchive(staging, options.output);
    const { size } = await stat(options.output);
    return { ...facts, output: options.output, engine, storage: manifest.storage, fileCount: keys.length, bytes: size };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
