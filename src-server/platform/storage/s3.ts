import type { S3Settings } from './s3-settings';
import type { FileStorage } from './types';

/**
 * S3-compatible object storage (s3-client-storage.ts). The AWS SDK is large, and most servers keep
 * their files in a folder: it loads with the first file operation, not when the server starts.
 */
export function createS3Storage(settings: S3Settings): FileStorage {
  let storage: Promise<FileStorage> | undefined;
  const client = (): Promise<FileStorage> =>
    (storage ??= import('./s3-client-storage').then(({ createS3ClientStorage }) => createS3ClientStorage(settings)));
  return {
    kind: 's3',
    putFile: async (localPath, contentType) => (await client()).putFile(localPath, contentType),
    open: async (key) => (await client()).open(key),
    delete: async (key) => (await client()).delete(key),
    async *list() {
      yield* (await client()).list();
    },
    removeStaleTemporaries: async (olderThanMs) => (await client()).removeStaleTemporaries(olderThanMs),
  };
}
