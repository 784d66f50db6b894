import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

/**
 * The PostgreSQL database through the client tools: pg_dump's custom format (compressed, read
 * by pg_restore of the same or a newer version). The restore pipes pg_restore's SQL into one psql
 * transaction, so a failed restore leaves the database as it was.
 */

export class PgToolMissingError extends Error {
  constructor(readonly tool: string) {
    super(
      `${tool} was not found. Install PostgreSQL's client tools of the server's major version or newer ` +
        `(Debian: apt-get install postgresql-client), or name their folder with --pg-bin /usr/lib/postgresql/<version>/bin.`,
    );
    this.name = 'PgToolMissingError';
  }
}

export class PgToolFailedError extends Error {
  constructor(tool: string, output: string) {
    super(`${tool} failed: ${output.trim().split('\n').slice(-6).join('\n') || 'no message'}`);
    this.name = 'PgToolFailedError';
  }
}

/**
 * The connection for libpq: the URL without its password, which goes in PGPASSWORD so it is not
 * shown in the process list.
 */
function connection(databaseUrl: string): { url: string; env: NodeJS.ProcessEnv } {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = '';
  return { url: url.toString(), env: { ...process.env, ...(password === '' ? {} : { PGPASSWORD: password }) } };
}

const toolPath = (tool: string, pgBin: string | null): string => (pgBin === null ? tool : join(pgBin, tool));

/** Resolves when the child exits 0; rejects with its stderr, or PgToolMissingError when it is not installed. */
function finished(child: ChildProcess, tool: string): Promise<void> {
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    child.once('error', (error) => {
      reject('code' in error && error.code === 'ENOENT' ? new PgToolMissingError(tool) : error);
    });
    child.once('close', (code) => (code === 0 ? resolve() : reject(new PgToolFailedError(tool, stderr))));
  });
}

/** pg_dump of the whole database at databaseUrl into target (custom format). */
export async function dumpPostgres(databaseUrl: string, target: string, pgBin: string | null): Promise<void> {
  const { url, env } = connection(databaseUrl);
  const child = spawn(toolPath('pg_dump', pgBin), ['--format=custom', `--file=${target}`, `--dbname=${url}`], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  await finished(child, 'pg_dump');
}

/**
 * Restores a custom-format dump into the database at databaseUrl in one transaction. With
 * replace, schema public (every table of the portal) is dropped first, in the same transaction.
 */
export async function restorePostgres(
  databaseUrl: string,
  dump: string,
  options: { replace: boolean; pgBin: string | null },
): Promise<void> {
  const { url, env } = connection(databaseUrl);
  // Owners and grants are the source server's roles; the restoring role owns what it creates.
  const restore = spawn(toolPath('pg_restore', options.pgBin), ['--no-owner', '--no-acl', '--file=-', dump], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const replace = options.replace ? ['--command=drop schema public cascade; create schema public;'] : [];
  const psql = spawn(
    toolPath('psql', options.pgBin),
    ['--no-psqlrc', '--quiet', '--set=ON_ERROR_STOP=1', '--single-transaction', ...replace, '--file=-', `--dbname=${url}`],
    { env, stdio: ['pipe', 'ignore', 'pipe'] },
  );
  // psql commits at the end of its input, so its input ends only once pg_restore has succeeded;
  // if pg_restore fails, psql is stopped mid-transaction and the server rolls it back.
  restore.stdout.pipe(psql.stdin, { end: false });
  psql.stdin.on('error', () => undefined); // psql stopped early: its own error is the one reported
  let psqlError: unknown = null;
  let stopping = false;
  const applied = finished(psql, 'psql');
  applied.catch((error: unknown) => {
    if (stopping) return;
    psqlError = error;
    restore.kill();
  });
  try {
    await finished(restore, 'pg_restore');
  } catch (error) {
    stopping = true;
    psql.kill();
    await applied.catch(() => undefined);
    throw psqlError ?? error;
  }
  psql.stdin.end();
  await applied;
}
