import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfigContext, parseConfig, redactDatabaseUrl, type Config } from '../../config';
import { DatabaseUnreachableError } from '../connection';
import { DataDirLockedError } from '../data-dir-lock';
import { BackupRefusedError, createBackup, type BackupSummary } from './backup';
import { BackupInvalidError } from './manifest';
import { NothingToBackUpError } from './pglite-part';
import { PgToolFailedError, PgToolMissingError } from './postgres-part';
import { restoreBackup, RestoreRefusedError, type RestoreSummary } from './restore';

/**
 * `npm run backup -- [file]` and `npm run restore -- <file> [--force]` (docs/operations.md#backups).
 * Reads the server's own configuration (DATA_DIR, DATABASE_URL, S3_BUCKET) from the environment.
 */

const USAGE = [
  'Usage:',
  '  npm run backup [-- <file>] [--pg-bin <folder>]      default file: backups/portal-backup-<time>.tar',
  '  npm run restore -- <file> [--force] [--pg-bin <folder>]',
].join('\n');

interface Arguments {
  command: 'backup' | 'restore';
  file: string | null;
  force: boolean;
  pgBin: string | null;
}

function parseArguments(argv: readonly string[]): Arguments | string {
  const [command, ...rest] = argv;
  if (command !== 'backup' && command !== 'restore') return USAGE;
  const parsed: Arguments = { command, file: null, force: false, pgBin: null };
  for (let index = 0; index < rest.length; index += 1) {
    const value = rest[index] ?? '';
    if (value === '--force' && command === 'restore') parsed.force = true;
    else if (value === '--pg-bin' && rest[index + 1] !== undefined) parsed.pgBin = rest[(index += 1)] ?? null;
    else if (value.startsWith('--pg-bin=')) parsed.pgBin = value.slice('--pg-bin='.length);
    else if (value === '--help' || value === '-h' || value.startsWith('-') || parsed.file !== null) return USAGE;
    else parsed.file = value;
  }
  if (command === 'restore' && parsed.file === null) return `Name the backup to restore.\n${USAGE}`;
  return parsed;
}

/** backups/portal-backup-2026-03-10T01-00-00Z.tar: sorts by time, no colons (Windows shares). */
export function defaultBackupName(now: Date): string {
  return join(
    'backups',
    `portal-backup-${now
      .toISOString()
      .replace(/\.\d{3}Z$/, 'Z')
      .replace(/:/g, '-')}.tar`,
  );
}

const megabytes = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

function describeSource(config: Config): string {
  return config.databaseUrl === null
    ? `PGlite in ${join(config.dataDir, 'pglite')}`
    : `PostgreSQL at ${redactDatabaseUrl(config.databaseUrl)}`;
}

function backupReport(summary: BackupSummary, config: Config): string[] {
  return [
    `Backup written: ${summary.output} (${megabytes(summary.bytes)})`,
    `  database: ${describeSource(config)}, schema ${summary.schemaVersion ?? '(none)'}, ${summary.appointments ?? 0} appointments`,
    summary.storage === 'folder'
      ? `  stored files: ${summary.fileCount} from ${join(config.dataDir, 'files')}`
      : `  stored files: not included; S3 storage is configured, back up bucket ${config.s3?.bucket ?? ''} with your S3 tooling`,
  ];
}

function restoreReport(summary: RestoreSummary, archive: string, config: Config): string[] {
  return [
    ...summary.replaced.map((line) => `Replaced ${line}.`),
    `Restored ${archive} (taken ${summary.manifest.createdAt}) into ${describeSource(config)}`,
    `  schema ${summary.schemaVersion ?? '(none)'}, ${summary.appointments ?? 0} appointments, ${
      config.s3 === null ? `${summary.manifest.fileCount} stored files` : 'no stored files (S3 storage)'
    }`,
    ...summary.notes,
    'Start the server: it applies the migrations this version adds to an older backup.',
  ];
}

/** The one-line message for a failure we expect; null for anything else. */
function knownFailure(error: unknown, command: Arguments['command'], file: string): string | null {
  if (error instanceof DataDirLockedError) {
    const who = error.owner === null ? 'A portal server' : `A portal server (pid ${error.owner.pid})`;
    return (
      `${who} is using DATA_DIR ${error.dataDir}. PGlite runs inside the server, so stop the server, ` +
      `run npm run ${command} again, then start the server (docs/operations.md#backups). Nothing was ${command === 'backup' ? 'written' : 'changed'}.`
    );
  }
  if (error instanceof BackupInvalidError) return `Refused ${file}: ${error.message}. Nothing was changed.`;
  if (
    error instanceof RestoreRefusedError ||
    error instanceof BackupRefusedError ||
    error instanceof NothingToBackUpError ||
    error instanceof PgToolMissingError ||
    error instanceof PgToolFailedError ||
    error instanceof DatabaseUnreachableError
  ) {
    return error.message;
  }
  return null;
}

export async function runBackupCommand(argv: readonly string[], env: NodeJS.ProcessEnv, cwd: string): Promise<number> {
  const args = parseArguments(argv);
  if (typeof args === 'string') {
    process.stderr.write(`${args}\n`);
    return 2;
  }
  const parsed = parseConfig(env, loadConfigContext(cwd));
  if (!parsed.ok) {
    process.stderr.write(`Configuration problems:\n${parsed.problems.join('\n')}\n`);
    return 1;
  }
  const config = parsed.config;
  const now = new Date();
  const file = resolve(cwd, args.file ?? defaultBackupName(now));
  try {
    const lines =
      args.command === 'backup'
        ? backupReport(await createBackup({ config, output: file, now, writtenBy: config.appVersion, pgBin: args.pgBin }), config)
        : restoreReport(await restoreBackup({ config, archive: file, force: args.force, pgBin: args.pgBin }), file, config);
    process.stdout.write(`${lines.join('\n')}\n`);
    return 0;
  } catch (error) {
    const message = knownFailure(error, args.command, file);
    if (message === null) throw error;
    process.stderr.write(`${message}\n`);
    return 1;
  }
}

// Run as a script (npm run backup / restore); imported by the tests, it does nothing.
if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await runBackupCommand(process.argv.slice(2), process.env, process.cwd());
}
