import { createReadStream } from 'node:fs';
import { copyFile, mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { randomToken } from '../ids';
import { assertStorageKey, STORAGE_KEY_PATTERN, type FileStorage } from './types';

const TEMPORARY_PREFIX = '.tmp-';

function isMissing(error: unknown): boolean {
  return error instanceof Error && 'code' in error && error.code === 'ENOENT';
}

/** The folder's entries; none when it does not exist yet. */
async function namesIn(root: string): Promise<string[]> {
  try {
    return await readdir(root);
  } catch (error) {
    if (isMissing(error)) return [];
    throw error;
  }
}

async function fsyncFile(path: string, mode: number): Promise<void> {
  const handle = await open(path, 'r+');
  try {
    await handle.chmod(mode);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Copies to a temporary name beside target, fsyncs it and renames it, so target is whole or absent. */
async function copyInto(source: string, target: string): Promise<void> {
  const temporary = join(dirname(target), `${TEMPORARY_PREFIX}${randomToken(16)}`);
  try {
    await copyFile(source, temporary);
    await fsyncFile(temporary, 0o600);
    await rename(temporary, target);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** Flushes a file (or a folder's entries) to the disk, so a rename after it survives a power cut. */
export async function fsyncPath(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Files outside the web root, under DATA_DIR/files by default (docs/rules/security.md#files).
 * A write fsyncs the file, renames it to the key (copying it to a temporary name first when it is
 * on another disk) and fsyncs the folder, so a crash leaves either nothing under the key or the
 * whole file; temporaries left by a crash are removed by removeStaleTemporaries.
 */
export function createFolderStorage(root: string): FileStorage {
  const pathOf = (key: string): string => {
    assertStorageKey(key);
    return join(root, key);
  };
  return {
    kind: 'folder',
    async putFile(localPath) {
      await mkdir(root, { recursive: true, mode: 0o700 });
      const key = randomToken(24);
      // The work file is on the same disk (both under DATA_DIR): made durable, then renamed into
      // place. From another disk (EXDEV) it is copied to a temporary name first.
      await fsyncFile(localPath, 0o600);
      try {
        await rename(localPath, pathOf(key));
      } catch (error) {
        if (!(error instanceof Error && 'code' in error && error.code === 'EXDEV')) throw error;
        await copyInto(localPath, pathOf(key));
      }
      await fsyncPath(root).catch(() => undefined); // Not every filesystem lets a folder be fsynced.
      const { size } = await stat(pathOf(key));
      return { key, size };
    },
    async open(key) {
      const path = pathOf(key);
      try {
        const { size } = await stat(path);
        return { stream: createReadStream(path), size };
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
    async *list() {
      for (const name of await namesIn(root)) {
        if (!STORAGE_KEY_PATTERN.test(name)) continue;
        try {
          yield { key: name, modifiedAt: (await stat(join(root, name))).mtime };
        } catch (error) {
          if (!isMissing(error)) throw error;
        }
      }
    },
    async removeStaleTemporaries(olderThanMs) {
      const cutoff = Date.now() - olderThanMs;
      for (const name of (await namesIn(root)).filter((entry) => entry.startsWith(TEMPORARY_PREFIX))) {
        const path = join(root, name);
        const info = await stat(path).catch(() => null);
        if (info !== null && info.mtimeMs < cutoff) await rm(path, { force: true });
      }
    },
  };
}
