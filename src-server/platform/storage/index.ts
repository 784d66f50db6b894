import { join } from 'node:path';
import { createFolderStorage } from './folder';
import { createS3Storage } from './s3';
import type { S3Settings } from './s3-settings';
import type { FileStorage } from './types';

export { createFolderStorage } from './folder';
export { createS3Storage } from './s3';
export { parseS3Settings, type S3Settings } from './s3-settings';
export { InvalidStorageKeyError, type FileStorage } from './types';

/**
 * Deletes stored files no row names (a crash between storing a file and writing its row leaves
 * one). Only files older than olderThanMs are considered, so an upload in flight is never taken.
 */
export async function sweepOrphans(
  storage: FileStorage,
  referenced: (keys: string[]) => Promise<Set<string>>,
  options: { olderThanMs: number; now: Date },
): Promise<{ deleted: number }> {
  const cutoff = options.now.getTime() - options.olderThanMs;
  let deleted = 0;
  let batch: string[] = [];
  const flush = async (): Promise<void> => {
    const kept = await referenced(batch);
    for (const key of batch) {
      if (kept.has(key)) continue;
      await storage.delete(key);
      deleted += 1;
    }
    batch = [];
  };
  for await (const item of storage.list()) {
    if (item.modifiedAt.getTime() > cutoff) continue;
    batch.push(item.key);
    if (batch.length >= 500) await flush();
  }
  if (batch.length > 0) await flush();
  return { deleted };
}

/** The storage the configuration names: S3 when S3_BUCKET is set, else the folder DATA_DIR/files. */
export function configuredStorage(config: { s3: S3Settings | null; dataDir: string }): FileStorage {
  return config.s3 === null ? createFolderStorage(join(config.dataDir, 'files')) : createS3Storage(config.s3);
}
