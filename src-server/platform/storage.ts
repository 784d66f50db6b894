import { open, mkdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { randomToken } from './ids';

/**
 * Files outside the web root under DATA_DIR/files, named by the server (docs/rules/security.md#files):
 * a client-supplied name never becomes a path. Writes go to a temporary name, are fsynced and
 * then renamed, so a crash never leaves a half-written file under a real key.
 */
export interface FileStorage {
  /** Stores the bytes and answers the new key. */
  put(content: Uint8Array): Promise<string>;
  /** The bytes under key, or null when there is none. */
  get(key: string): Promise<Buffer | null>;
  /** Size in bytes, or null when there is none. */
  size(key: string): Promise<number | null>;
  delete(key: string): Promise<void>;
}

/** Keys are what randomToken makes: base64url only, so never a path separator or "..". */
const KEY_PATTERN = /^[A-Za-z0-9_-]{22,64}$/;

export class InvalidStorageKeyError extends Error {
  constructor() {
    super('Not a storage key');
    this.name = 'InvalidStorageKeyError';
  }
}

function isMissing(error: unknown): boolean {
  return error instanceof Error && 'code' in error && error.code === 'ENOENT';
}

export function createFileStorage(root: string): FileStorage {
  const pathOf = (key: string): string => {
    if (!KEY_PATTERN.test(key)) throw new InvalidStorageKeyError();
    return join(root, key);
  };
  return {
    async put(content) {
      await mkdir(root, { recursive: true });
      const key = randomToken(24);
      const temporary = join(root, `.tmp-${randomToken(16)}`);
      const handle = await open(temporary, 'wx', 0o600);
      try {
        await handle.writeFile(content);
        await handle.sync();
      } catch (error) {
        await handle.close();
        await rm(temporary, { force: true });
        throw error;
      }
      await handle.close();
      await rename(temporary, pathOf(key));
      return key;
    },
    async get(key) {
      try {
        return await readFile(pathOf(key));
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async size(key) {
      try {
        return (await stat(pathOf(key))).size;
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
  };
}
