import { copyFile, link, mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { STORAGE_KEY_PATTERN } from '../../platform/storage/types';

/**
 * The stored files of folder storage (DATA_DIR/files). Only names that are storage keys are
 * taken: temporaries of an upload in flight (.tmp-…) are not files of any row.
 */

async function namesIn(folder: string): Promise<string[]> {
  try {
    return await readdir(folder);
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return [];
    throw error;
  }
}

/** The stored files' keys in folder, sorted. */
export async function storedKeys(folder: string): Promise<string[]> {
  return (await namesIn(folder)).filter((name) => STORAGE_KEY_PATTERN.test(name)).sort();
}

/** Every entry of folder, for "is it empty" (leftover temporaries count: the folder is in use). */
export async function entriesIn(folder: string): Promise<string[]> {
  return namesIn(folder);
}

/**
 * Puts the stored files into target as hard links (a stored file is never changed in place, only
 * replaced or deleted, so a link is a snapshot at no cost), or as copies on another disk.
 */
export async function stageFiles(folder: string, target: string): Promise<string[]> {
  const keys = await storedKeys(folder);
  await mkdir(target, { recursive: true });
  for (const key of keys) {
    try {
      await link(join(folder, key), join(target, key));
    } catch (error) {
      const code = error instanceof Error && 'code' in error ? error.code : '';
      if (code === 'ENOENT') continue; // deleted since the listing: no row names it any more
      if (code !== 'EXDEV' && code !== 'EPERM' && code !== 'EMLINK') throw error;
      await copyFile(join(folder, key), join(target, key));
    }
  }
  return storedKeys(target);
}
