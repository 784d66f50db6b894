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
import { assertStorageKey, STORAGE_KEY_PATTERN, type FileStorage } from './types';

export interface S3Settings {
  bucket: string;
  /** Null: AWS itself. */
  endpoint: string | null;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
  /** Key prefix inside the bucket, e.g. "attachments/". */
  prefix: string;
}

/**
 * S3_* settings, or null when S3_BUCKET is not set (the folder under DATA_DIR is used then).
 * Throws an Error naming the variable that is wrong.
 */
export function parseS3Settings(env: NodeJS.ProcessEnv): S3Settings | null {
  const bucket = env.S3_BUCKET?.trim() ?? '';
  if (bucket === '') return null;
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) {
    throw new Error('S3_BUCKET must be a bucket name: 3 to 63 lower-case letters, digits, dots and hyphens');
  }
  const accessKeyId = env.S3_ACCESS_KEY_ID?.trim() ?? '';
  const secretAccessKey = env.S3_SECRET_ACCESS_KEY?.trim() ?? '';
  if (accessKeyId === '') throw new Error('S3_ACCESS_KEY_ID is required with S3_BUCKET');
  if (secretAccessKey === '') throw new Error('S3_SECRET_ACCESS_KEY is required with S3_BUCKET');
  const endpoint = env.S3_ENDPOINT?.trim() || null;
  if (endpoint !== null) {
    let url: URL;
    try {
      url = new URL(endpoint);
    } catch {
      throw new Error('S3_ENDPOINT must be a URL such as https://s3.example.com');
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('S3_ENDPOINT must be an http or https URL');
  }
  const forcePathStyle = (env.S3_FORCE_PATH_STYLE ?? 'false').trim().toLowerCase();
  if (forcePathStyle !== 'true' && forcePathStyle !== 'false') throw new Error('S3_FORCE_PATH_STYLE must be true or false');
  const prefix = env.S3_PREFIX ?? 'attachments/';
  if (!/^[A-Za-z0-9/_.-]{0,200}$/.test(prefix) || prefix.startsWith('/') || prefix.includes('..')) {
    throw new Error('S3_PREFIX may hold letters, digits, "/", "_", "." and "-", and must not start with "/"');
  }
  return {
    bucket,
    endpoint,
    region: env.S3_REGION?.trim() || 'us-east-1',
    accessKeyId,
    secretAccessKey,
    forcePathStyle: forcePathStyle === 'true',
    prefix,
  };
}

function isMissing(error: unknown): boolean {
  return error instanceof NoSuchKey || (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404);
}

/**
 * S3-compatible object storage (AWS SDK v3), so that several servers on one PostgreSQL share the
 * files. A PUT is atomic: the object exists whole or not at all, so no temporaries are needed.
 */
export function createS3Storage(settings: S3Settings, client?: S3Client): FileStorage {
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
