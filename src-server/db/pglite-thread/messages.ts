/**
 * What the server's thread and the embedded database's thread say to each other
 * (db/pglite-thread/client.ts and thread.ts). Every request carries an id; the thread answers it
 * once, with a result or an error.
 */

export type ThreadRequest =
  /** Opens DATA_DIR's database ahead of `open` (thread.ts), which then answers with it. */
  | { op: 'open-early'; dataDir: string; sharedBuffersMb: number | null }
  | { op: 'open'; dataDir: string; sharedBuffersMb: number | null }
  | { op: 'query'; sql: string; params: readonly unknown[]; tx?: number }
  | { op: 'exec'; sql: string; tx?: number }
  /** Starts transaction `tx`; answered once it holds the connection. */
  | { op: 'begin'; tx: number }
  /** Commits (or rolls back) transaction `tx`; answered once it has ended. */
  | { op: 'end'; tx: number; commit: boolean }
  | { op: 'close' };

export type ThreadAnswer = { id: number; ok: true; result?: unknown } | { id: number; ok: false; error: SerializedError };

export interface SerializedError {
  name: string;
  message: string;
  stack?: string;
  /** The error's own fields that survive a copy: PostgreSQL's `code`, `constraint`, `detail`… */
  fields: Record<string, unknown>;
}

/** An error as it can cross to the other thread (a structured clone keeps only message and name). */
export function serializeError(error: unknown): SerializedError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error), fields: {} };
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(error)) {
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) fields[key] = value;
    else if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
      try {
        fields[key] = JSON.parse(JSON.stringify(value)) as unknown;
      } catch {
        // Not copyable (a cycle): left out.
      }
    }
  }
  return { name: error.name, message: error.message, ...(error.stack === undefined ? {} : { stack: error.stack }), fields };
}

/**
 * The error again on this side: same name, message and fields, and the prototype of a class
 * `known` names, so `instanceof DataDirLockedError` and `sqlState(error)` work as before.
 */
export function reviveError(serialized: SerializedError, known: Record<string, { prototype: object }> = {}): Error {
  const error = new Error(serialized.message);
  Object.assign(error, serialized.fields);
  error.name = serialized.name;
  if (serialized.stack !== undefined) error.stack = serialized.stack;
  const kind = known[serialized.name];
  if (kind !== undefined) Object.setPrototypeOf(error, kind.prototype);
  return error;
}
