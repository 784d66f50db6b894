import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { pgliteDatabase, type Database, type PgliteConnection } from '../connection';
import { DataDirCorruptError } from '../data-dir-errors';
import { DataDirLockedError } from '../data-dir-lock';
import { reviveError, type ThreadAnswer, type ThreadRequest } from './messages';

/**
 * The server's side of the embedded database's thread (db/pglite-thread/thread.ts): DATA_DIR's
 * PGlite runs there, and this side sends it statements. Why a thread: PGlite's work at a start
 * (about 0.6 s of WebAssembly) then runs beside the server's own start (loading its code, building
 * its routes) instead of before it, and later a long statement no longer stops every request.
 *
 * The cost: each statement crosses to the thread and back (about 0.15-0.2 ms more for a statement
 * awaited alone, measured) and its parameters and rows are copied (structured clone); see
 * docs/server.md#the-database-thread.
 */

/** Errors the thread's open can answer that main.ts tells apart. */
const KNOWN_ERRORS = { DataDirCorruptError, DataDirLockedError };

/** tsx's ESM API (`tsx/esm/api` as `import` finds it; require would find its CommonJS build). */
function tsxEsmApi(): string {
  const require = createRequire(import.meta.url);
  const manifest = require('tsx/package.json') as { exports: Record<string, { import?: { default?: string } } | string> };
  const entry = manifest.exports['./esm/api'];
  const file = typeof entry === 'string' ? entry : (entry?.import?.default ?? './dist/esm/api/index.mjs');
  return pathToFileURL(join(dirname(require.resolve('tsx/package.json')), file)).href;
}

/**
 * A new thread running thread.ts: the bundle's own file where the server is built; the TypeScript
 * source otherwise (tests, `node --import tsx src-server/main.ts`), through tsx's loader, which a
 * worker thread does not inherit from `--import tsx`.
 */
function startThread(): Worker {
  if (!import.meta.url.endsWith('.ts')) {
    // A template literal: scripts/build-server.mjs rewrites quoted `new URL` paths to the sources,
    // and the built thread lies beside every chunk of the bundle.
    return new Worker(new URL(`./pglite-thread.js`, import.meta.url));
  }
  const thread = new URL('./thread.ts', import.meta.url).href;
  const code = `import(${JSON.stringify(tsxEsmApi())}).then(({ register }) => { register(); return import(${JSON.stringify(thread)}); });`;
  return new Worker(code, { eval: true });
}

export class PgliteThread {
  private readonly worker: Worker;
  private nextId = 1;
  private nextTransaction = 1;
  private readonly pending = new Map<number, { resolve(result: unknown): void; reject(error: Error): void }>();
  private stopped: Error | null = null;
  private closing = false;

  constructor() {
    this.worker = startThread();
    this.worker.on('message', (answer: ThreadAnswer) => {
      const waiting = this.pending.get(answer.id);
      if (waiting === undefined) return;
      this.pending.delete(answer.id);
      if (answer.ok) waiting.resolve(answer.result);
      else waiting.reject(reviveError(answer.error, KNOWN_ERRORS));
    });
    this.worker.on('error', (error) => this.stop(error));
    this.worker.on('exit', (code) => this.stop(new Error(`the embedded database's thread ended (exit code ${code})`)));
  }

  /** Told when the thread ends while the database is open (a crash, not a close). */
  private onLost: ((error: Error) => void) | null = null;

  private stop(reason: Error): void {
    if (this.stopped !== null) return;
    this.stopped = this.closing ? new Error('PGlite is closed') : reason;
    if (!this.closing) this.onLost?.(reason);
    for (const waiting of this.pending.values()) waiting.reject(this.stopped);
    this.pending.clear();
  }

  private call(request: ThreadRequest): Promise<unknown> {
    if (this.stopped !== null) return Promise.reject(this.stopped);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, request });
    });
  }

  /** Lets the thread open DATA_DIR's database now; `open` with the same folder and pool takes it. */
  openEarly(dataDir: string, sharedBuffersMb: number | null): void {
    // Its outcome is `open`'s answer.
    this.call({ op: 'open-early', dataDir, sharedBuffersMb }).catch(() => undefined);
  }

  /** Opens DATA_DIR's database in the thread; throws DataDirLockedError or DataDirCorruptError as openPgliteDataDir does. */
  async open(dataDir: string, sharedBuffersMb: number | null, onLost?: (error: Error) => void): Promise<Database> {
    try {
      await this.call({ op: 'open', dataDir, sharedBuffersMb });
    } catch (error) {
      await this.discard();
      throw error;
    }
    this.onLost = onLost ?? null;
    return pgliteDatabase(this.connection());
  }

  private connection(): PgliteConnection {
    const statements = (tx?: number): Pick<PgliteConnection, 'query' | 'exec'> => ({
      query: async <T>(sql: string, params: unknown[] = []) => ({
        rows: (await this.call({ op: 'query', sql, params, ...(tx === undefined ? {} : { tx }) })) as T[],
      }),
      exec: (sql: string) => this.call({ op: 'exec', sql, ...(tx === undefined ? {} : { tx }) }),
    });
    const isClosed = (): boolean => this.stopped !== null || this.closing;
    return {
      get closed() {
        return isClosed();
      },
      ...statements(),
      transaction: async <T>(fn: (tx: Pick<PgliteConnection, 'query' | 'exec'>) => Promise<T>): Promise<T> => {
        const tx = this.nextTransaction++;
        await this.call({ op: 'begin', tx });
        let result: T;
        try {
          result = await fn(statements(tx));
        } catch (error) {
          await this.call({ op: 'end', tx, commit: false }).catch(() => undefined);
          throw error;
        }
        await this.call({ op: 'end', tx, commit: true });
        return result;
      },
      close: async () => {
        if (isClosed()) return;
        try {
          await this.call({ op: 'close' });
        } finally {
          this.closing = true;
          await this.worker.terminate();
        }
      },
    };
  }

  /** Ends a thread that was started but is not needed (the server runs on PostgreSQL). */
  async discard(): Promise<void> {
    this.closing = true;
    await this.worker.terminate();
  }
}

/** A thread started before the server's code loaded (dist/server/main.js), waiting to be used. */
let early: PgliteThread | null = null;

/** Starts the database's thread now, so PGlite loads while the server's own code does. */
export function startPgliteThreadEarly(): PgliteThread {
  early ??= new PgliteThread();
  return early;
}

/** The thread started early, or a new one. */
export function takePgliteThread(): PgliteThread {
  const thread = early ?? new PgliteThread();
  early = null;
  return thread;
}

/** Ends the early thread if the configuration did not need it. */
export async function discardEarlyPgliteThread(): Promise<void> {
  const thread = early;
  early = null;
  await thread?.discard();
}

/** openPgliteDataDir (db/open-database.ts), run in the database's own thread. */
export function openPgliteDataDirInThread(
  dataDir: string,
  sharedBuffersMb: number | null = null,
  onLost?: (error: Error) => void,
): Promise<Database> {
  return takePgliteThread().open(dataDir, sharedBuffersMb, onLost);
}
