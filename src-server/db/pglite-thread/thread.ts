import { parentPort } from 'node:worker_threads';
import { preloadPglite, type Database, type Queryable } from '../connection';
import { openPgliteDataDir } from '../pglite-data-dir';
import { serializeError, type ThreadAnswer, type ThreadRequest } from './messages';

/**
 * The embedded database's thread (db/pglite-thread/client.ts starts it): it opens DATA_DIR's
 * PGlite under the DATA_DIR lock and runs the statements the server's thread sends. PostgreSQL's
 * work (WebAssembly) then runs beside the server's JavaScript instead of in turn with it: at a
 * start the database opens while the server's code loads and its routes are built.
 */

const port = parentPort;
if (port === null) throw new Error('db/pglite-thread/thread.ts runs as a worker thread');

// PGlite's code and WebAssembly load now, while the server's thread is still loading its own.
preloadPglite().catch(() => undefined);

/** The database this thread serves, once `open` has answered. */
let database: Database | null = null;

/**
 * Started before the server's code (early-start.ts), the thread is told DATA_DIR and the pool as
 * soon as the configuration is read (`openEarly`) and opens the database under DATA_DIR's lock
 * while the server's code still loads. The server's `open` then takes this database when it names
 * the same folder and pool; otherwise it is closed and the one asked for is opened.
 */
interface EarlyOpening {
  dataDir: string;
  sharedBuffersMb: number | null;
  opening: Promise<Database>;
}
let early: EarlyOpening | null = null;

function openEarly(dataDir: string, sharedBuffersMb: number | null): void {
  if (early !== null || database !== null) return;
  const opening = openPgliteDataDir(dataDir, sharedBuffersMb);
  opening.catch(() => undefined); // answered to the server's open
  early = { dataDir, sharedBuffersMb, opening };
}

/** The database `open` asks for: the one opened early when it is the same, else a new one. */
async function open(dataDir: string, sharedBuffersMb: number | null): Promise<Database> {
  const guess = early;
  early = null;
  if (guess !== null && guess.dataDir === dataDir && guess.sharedBuffersMb === sharedBuffersMb) return guess.opening;
  if (guess !== null) await guess.opening.then((db) => db.close()).catch(() => undefined);
  return openPgliteDataDir(dataDir, sharedBuffersMb);
}

/** Open transactions: their statements' target, and how each ends. */
const transactions = new Map<number, { tx: Queryable; finish(commit: boolean): void; ended: Promise<unknown> }>();
/** Thrown inside a transaction the server's thread rolled back; not an error of the database. */
const ROLLED_BACK = Symbol('rolled back');

function openDatabase(): Database {
  if (database === null) throw new Error('the embedded database is not open');
  return database;
}

function target(tx: number | undefined): Queryable {
  if (tx === undefined) return openDatabase();
  const open = transactions.get(tx);
  if (open === undefined) throw new Error(`transaction ${tx} is not open`);
  return open.tx;
}

/** Starts a transaction and answers once it holds the connection; `end` finishes it. */
function begin(tx: number): Promise<void> {
  return new Promise((started, failed) => {
    let holding = false;
    const ended = openDatabase().transaction(
      (handle) =>
        new Promise<void>((resolve, reject) => {
          holding = true;
          transactions.set(tx, { tx: handle, finish: (commit) => (commit ? resolve() : reject(ROLLED_BACK)), ended });
          started();
        }),
    );
    ended.catch((error: unknown) => {
      if (!holding) failed(error);
    });
  });
}

async function end(tx: number, commit: boolean): Promise<void> {
  const open = transactions.get(tx);
  if (open === undefined) throw new Error(`transaction ${tx} is not open`);
  transactions.delete(tx);
  open.finish(commit);
  try {
    await open.ended;
  } catch (error) {
    if (error !== ROLLED_BACK) throw error;
  }
}

async function handle(request: ThreadRequest): Promise<unknown> {
  switch (request.op) {
    case 'open-early':
      openEarly(request.dataDir, request.sharedBuffersMb);
      return undefined;
    case 'open':
      if (database !== null) throw new Error('the embedded database is open already');
      database = await open(request.dataDir, request.sharedBuffersMb);
      return undefined;
    case 'query':
      return target(request.tx).query(request.sql, request.params);
    case 'exec':
      return target(request.tx).exec(request.sql);
    case 'begin':
      return begin(request.tx);
    case 'end':
      return end(request.tx, request.commit);
    case 'close': {
      const open = database;
      database = null;
      // Fits the buffer pool to the database for its next start and releases the DATA_DIR lock.
      await open?.close();
      return undefined;
    }
  }
}

port.on('message', (message: { id: number; request: ThreadRequest }) => {
  handle(message.request).then(
    (result) => port.postMessage({ id: message.id, ok: true, result } satisfies ThreadAnswer),
    (error: unknown) => port.postMessage({ id: message.id, ok: false, error: serializeError(error) } satisfies ThreadAnswer),
  );
});
