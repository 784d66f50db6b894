import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Extensions, PGlite, PGliteOptions } from '@electric-sql/pglite';
import { UNREACHABLE_CODES } from '../platform/outbox/network-errors';
import { tracedQuery } from '../platform/tracing/query-scope';
import { PGLITE_SHARED_BUFFERS_MIN_MB } from './pglite-settings';

/**
 * One small query layer over both engines (docs/server.md#transactions-and-the-database): the embedded PGlite and a
 * PostgreSQL server through a node-postgres pool. Repositories only see `Queryable`, so the same
 * SQL runs on both.
 *
 * Driver differences the SQL has to respect (both engines return them differently):
 * - `bigint`/`numeric` come back as numbers from PGlite but strings from node-postgres: cast to
 *   `int` or `float8` in the query.
 * - `date` becomes a JS Date at a different midnight in each driver: select it as `::text`.
 * - JSON parameters are passed as `JSON.stringify(value)` with a `::jsonb` cast.
 */

export type Row = Record<string, unknown>;

export interface Queryable {
  /** One statement with $1… parameters; answers the rows. */
  query<T extends Row = Row>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /** One or more statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

/** What the database did since it was opened, for /metrics (platform/metrics). */
export interface DatabaseStats {
  /** Statements run (inside transactions too), those that failed, and their time in seconds. */
  queries: number;
  failedQueries: number;
  querySeconds: number;
  /**
   * PostgreSQL's node-postgres pool: connections open, of which idle, callers waiting for one, and
   * the pool's maximum. Null for PGlite: one in-process connection runs one query at a time.
   */
  pool: { total: number; idle: number; waiting: number; max: number } | null;
}

export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Counts since the database was opened (cheap: no query). */
  stats(): DatabaseStats;
  /** Runs fn in one transaction: commit when it resolves, roll back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/**
 * PGlite's code with the extensions our migrations need (btree_gist, pg_trgm), its WebAssembly
 * compiled (on V8's background threads) and its file bundle read: loaded once per thread and
 * shared by every instance it opens. Loaded on first use, so a server on PostgreSQL never loads
 * PGlite, and the database's thread can start loading it while the server's code is still loading
 * (db/pglite-thread/client.ts).
 */
interface PgliteArtifacts {
  PGlite: typeof PGlite;
  extensions: Extensions;
  pgliteWasmModule?: NonNullable<PGliteOptions['pgliteWasmModule']>;
  fsBundle?: Blob;
}
let artifacts: Promise<PgliteArtifacts> | null = null;
// The server's TypeScript settings leave out the browser's types, WebAssembly's among them.
const { WebAssembly: wasm } = globalThis as unknown as {
  WebAssembly: { compile(bytes: Uint8Array): Promise<NonNullable<PGliteOptions['pgliteWasmModule']>> };
};

export function preloadPglite(): Promise<PgliteArtifacts> {
  artifacts ??= (async () => {
    const dist = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
    // Should a file not be where this release keeps it, PGlite finds and compiles it itself.
    const [{ PGlite }, { btree_gist }, { pg_trgm }, pgliteWasmModule, fsBundle] = await Promise.all([
      import('@electric-sql/pglite'),
      import('@electric-sql/pglite/contrib/btree_gist'),
      import('@electric-sql/pglite/contrib/pg_trgm'),
      readFile(join(dist, 'pglite.wasm'))
        .then((bytes) => wasm.compile(bytes))
        .catch(() => undefined),
      readFile(join(dist, 'pglite.data'))
        .then((bytes) => new Blob([bytes]))
        .catch(() => undefined),
    ]);
    return {
      PGlite,
      extensions: { btree_gist, pg_trgm },
      ...(pgliteWasmModule === undefined ? {} : { pgliteWasmModule }),
      ...(fsBundle === undefined ? {} : { fsBundle }),
    };
  })();
  return artifacts;
}

/** Counts every statement and its time, for Database.stats(); a span of its request when traced (platform/tracing). */
function createQueryStats() {
  const counts = { queries: 0, failedQueries: 0, querySeconds: 0 };
  return {
    counts,
    async time<T>(sql: string, run: () => Promise<T>): Promise<T> {
      const started = performance.now();
      counts.queries += 1;
      try {
        return await tracedQuery(sql, run);
      } catch (error) {
        counts.failedQueries += 1;
        throw error;
      } finally {
        counts.querySeconds += (performance.now() - started) / 1000;
      }
    },
  };
}

/**
 * A PGlite instance loaded with the extensions our migrations need, with a shared buffer pool of
 * `sharedBuffersMb` (default the smallest, 16 MB; null: the one the data folder's configuration
 * names, see db/pglite-settings.ts).
 */
export async function createPglite(options: { dataDir?: string; loadDataDir?: Blob; sharedBuffersMb?: number | null }): Promise<PGlite> {
  const sharedBuffersMb = options.sharedBuffersMb === undefined ? PGLITE_SHARED_BUFFERS_MIN_MB : options.sharedBuffersMb;
  const pool = sharedBuffersMb === null ? [] : ['-c', `shared_buffers=${sharedBuffersMb}MB`];
  const { PGlite, extensions, ...wasm } = await preloadPglite();
  return PGlite.create({
    ...(options.dataDir === undefined ? {} : { dataDir: options.dataDir }),
    ...(options.loadDataDir === undefined ? {} : { loadDataDir: options.loadDataDir }),
    ...wasm,
    extensions,
    startParams: [...PGlite.defaultStartParams, ...pool],
  });
}

/** What pgliteDatabase uses of a PGlite: PGlite itself, or its stand-in in the server's thread (db/pglite-thread). */
export interface PgliteConnection {
  readonly closed: boolean;
  query<T>(sql: string, params?: unknown[]): Promise<{ rows: T[] }>;
  exec(sql: string): Promise<unknown>;
  transaction<T>(fn: (tx: Pick<PgliteConnection, 'query' | 'exec'>) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** Wraps an open PGlite. Closing the Database closes the PGlite. */
export function pgliteDatabase(pglite: PgliteConnection, onClose?: () => Promise<void> | void): Database {
  let closed = false;
  const stats = createQueryStats();
  return {
    kind: 'pglite',
    stats: () => ({ ...stats.counts, pool: null }),
    async query<T extends Row>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
      const result = await stats.time(sql, () => pglite.query<T>(sql, [...params]));
      return result.rows;
    },
    async exec(sql: string): Promise<void> {
      await stats.time(sql, () => pglite.exec(sql));
    },
    transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      // PGlite serialises queries itself; inside fn every statement must go through tx, or it
      // waits for the transaction to end.
      return pglite.transaction((tx) =>
        fn({
          async query<R extends Row>(sql: string, params: readonly unknown[] = []): Promise<R[]> {
            const result = await stats.time(sql, () => tx.query<R>(sql, [...params]));
            return result.rows;
          },
          async exec(sql: string): Promise<void> {
            await stats.time(sql, () => tx.exec(sql));
          },
        }),
      );
    },
    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      try {
        if (!pglite.closed) await pglite.close();
      } finally {
        await onClose?.();
      }
    },
  };
}

/** The database at DATABASE_URL cannot be reached; main.ts prints one line and exits. */
export class DatabaseUnreachableError extends Error {
  constructor(
    readonly redactedUrl: string,
    readonly reason: string,
  ) {
    super(`Cannot reach the database at DATABASE_URL (${redactedUrl}, password hidden): ${reason}`);
    this.name = 'DatabaseUnreachableError';
  }
}

function describeError(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) {
    // node's connect() reports IPv4 and IPv6 failures together; the first says enough.
    return describeError(error.errors[0]);
  }
  if (error instanceof Error) {
    const code = 'code' in error && typeof error.code === 'string' ? error.code : null;
    return code !== null && !error.message.includes(code) ? `${error.message} (${code})` : error.message || String(code);
  }
  return String(error);
}

const DEFAULT_POOL_MAX = 10;

/**
 * Opens a node-postgres pool and proves it works with `select 1`, so a wrong DATABASE_URL stops
 * the start with one line instead of failing on the first request.
 */
export async function openPostgres(
  connectionString: string,
  redactedUrl: string,
  options: { max?: number; onConnectionLost?: (error: Error) => void } = {},
): Promise<Database> {
  // node-postgres loads only where PostgreSQL is configured: an embedded start never reads it.
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({
    connectionString,
    max: options.max ?? DEFAULT_POOL_MAX,
    // A burst (many patients booking at once on a busy machine) queues for a connection; a
    // request answers 503 only after waiting this long, well inside a proxy's 30-60 s.
    connectionTimeoutMillis: 15_000,
    // A runaway query must not hold a pooled connection for ever.
    statement_timeout: 30_000,
    idle_in_transaction_session_timeout: 60_000,
  });
  // An idle client that loses its server emits 'error' on the pool; unhandled it would crash the process
  // (a checked-out one is listened to in transaction()).
  pool.on('error', (error) => options.onConnectionLost?.(error));
  try {
    await pool.query('select 1');
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw new DatabaseUnreachableError(redactedUrl, describeError(error));
  }
  let closed = false;
  const stats = createQueryStats();
  const max = options.max ?? DEFAULT_POOL_MAX;
  return {
    kind: 'postgres',
    stats: () => ({ ...stats.counts, pool: { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max } }),
    async query<T extends Row>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
      const result = await stats.time(sql, () => pool.query<T>(sql, [...params]));
      return result.rows;
    },
    async exec(sql: string): Promise<void> {
      await stats.time(sql, () => pool.query(sql));
    },
    async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      let broken = false;
      // A checked-out client whose server goes away (a restart) emits 'error' between queries,
      // where the pool no longer listens: unhandled it would crash the process. The next query on
      // it fails instead, so the request is answered 503, and the client is not handed back.
      const lost = (error: Error): void => {
        broken = true;
        options.onConnectionLost?.(error);
      };
      client.on('error', lost);
      try {
        await client.query('begin');
        const value = await fn({
          async query<R extends Row>(sql: string, params: readonly unknown[] = []): Promise<R[]> {
            const result = await stats.time(sql, () => client.query<R>(sql, [...params]));
            return result.rows;
          },
          async exec(sql: string): Promise<void> {
            await stats.time(sql, () => client.query(sql));
          },
        });
        await client.query('commit');
        return value;
      } catch (error) {
        try {
          await client.query('rollback');
        } catch {
          // The connection itself failed: do not hand it back to the pool.
          broken = true;
        }
        throw error;
      } finally {
        client.off('error', lost);
        client.release(broken);
      }
    },
    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}

const UNAVAILABLE_CODES = new Set([
  ...UNREACHABLE_CODES,
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '53300', // too_many_connections
]);

/**
 * True when an error means "the database is not there right now" rather than "this query is
 * wrong", so the API answers 503 and never a false 2xx or a misleading 500 (docs/rules/security.md#reliability).
 */
export function isDatabaseUnavailableError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = 'code' in error && typeof error.code === 'string' ? error.code : '';
  if (UNAVAILABLE_CODES.has(code) || code.startsWith('08')) return true;
  return /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Cannot use a pool after calling end|PGlite is closed/i.test(
    error.message,
  );
}
