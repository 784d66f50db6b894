import type { Readable } from 'node:stream';

/**
 * Where attachments' bytes live (docs/rules/attachments.md#storage). Keys are made by the server,
 * never from a client's file name. A write is durable before putFile answers, so the database row
 * written after it never names a missing file.
 */
export interface FileStorage {
  /** 'folder' or 's3', for logs and the README. */
  readonly kind: 'folder' | 's3';
  /** Stores the file at localPath under a new key. The local file may be moved away; the caller removes it if it is still there. */
  putFile(localPath: string, contentType: string): Promise<{ key: string; size: number }>;
  /** A stream of the bytes under key and their size, or null when there is none. */
  open(key: string): Promise<{ stream: Readable; size: number } | null>;
  delete(key: string): Promise<void>;
  /** Every stored key with its last change, for the orphan sweeper. */
  list(): AsyncIterable<{ key: string; modifiedAt: Date }>;
  /** Removes half-written temporaries older than olderThanMs (a crash mid-write leaves them). */
  removeStaleTemporaries(olderThanMs: number): Promise<void>;
}

/** Keys are what randomToken makes: base64url only, so never a path separator or "..". */
export const STORAGE_KEY_PATTERN = /^[A-Za-z0-9_-]{22,64}$/;

export class InvalidStorageKeyError extends Error {
  constructor() {
    super('Not a storage key');
    this.name = 'InvalidStorageKeyError';
  }
}

export function assertStorageKey(key: string): void {
  if (!STORAGE_KEY_PATTERN.test(key)) throw new InvalidStorageKeyError();
}
