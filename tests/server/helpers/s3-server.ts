import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import type { S3Settings } from '../../../src-server/platform/storage';

export interface LocalS3 {
  settings: S3Settings;
  stop(): Promise<void>;
}

/** A real S3-compatible server (s3rver) on a free port with one empty bucket, in its own folder. */
export async function startLocalS3(bucket = 'portal-attachments'): Promise<LocalS3> {
  const directory = mkdtempSync(join(tmpdir(), 'portal-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const address = await server.run();
  return {
    settings: {
      bucket,
      endpoint: `http://127.0.0.1:${address.port}`,
      region: 'us-east-1',
      // s3rver's fixed credentials.
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      forcePathStyle: true,
      prefix: 'attachments/',
    },
    async stop() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
