import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { randomToken } from '../ids';
import type { S3Settings } from './s3-settings';
import { assertStorageKey, STORAGE_KEY_PATTERN, type FileStorage } from './types';

function isMissing(error: unknown): boolean {
  return error instanceof NoSuchKey || (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404);
}

/**
 * S3-compatible object storage (AWS SDK v3), so that several servers on one PostgreSQL share the
 * files. A PUT is atomic: the object exists whole or not at all, so no temporaries are needed.
 */
export function createS3ClientStorage(settings: S3Settings, client?: S3Client): FileStorage {
  const s3 =
    client ??
    new S3Client({
      region: settings.region,
      endpoint: settings.endpoint ?? undefined,
      forcePathStyle: settings.forcePathStyle,
      credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
      // Plain signed bodies: many S3-compatible servers do not accept aws-chunked checksum trailers.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  const objectKey = (key: string): string => {
    assertStorageKey(key);
    return `${settings.prefix}${key}`;
  };
  return {
    kind: 's3',
    async putFile(localPath, contentType) {
      const key = randomToken(24);
      const { size } = await stat(localPath);
      await s3.send(
        new PutObjectCommand({
          Bucket: settings.bucket,
          Key: objectKey(key),
          Body: createReadStream(localPath),
          ContentLength: size,
          ContentType: contentType,
        }),
      );
      return { key, size };
    },
    async open(key) {
      try {
        const answer = await s3.send(new GetObjectCommand({ Bucket: settings.bucket, Key: objectKey(key) }));
        if (answer.Body === undefined) return null;
        return { stream: answer.Body as Readable, size: answer.ContentLength ?? 0 };
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async delete(key) {
      await s3.send(new DeleteObjectCommand({ Bucket: settings.bucket, Key: objectKey(key) }));
    },
    async *list() {
      let token: string | undefined;
      do {
        const page = await s3.send(
          new ListObjectsV2Command({ Bucket: settings.bucket, Prefix: settings.prefix, ContinuationToken: token }),
        );
        for (const item of page.Contents ?? []) {
          const key = (item.Key ?? '').slice(settings.prefix.length);
          if (STORAGE_KEY_PATTERN.test(key)) yield { key, modifiedAt: item.LastModified ?? new Date(0) };
        }
        token = page.IsTruncated === true ? page.NextContinuationToken : undefined;
      } while (token !== undefined);
    },
    async removeStaleTemporaries() {
      // Nothing to do: an interrupted PUT leaves no object.
    },
  };
}
