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
