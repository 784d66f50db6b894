import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createFolderStorage,
  createS3Storage,
  InvalidStorageKeyError,
  parseS3Settings,
  sweepOrphans,
  type FileStorage,
} from '../../../src-server/platform/storage';
import { startLocalS3, type LocalS3 } from '../helpers/s3-server';

let work = '';
beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), 'portal-storage-'));
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

function localFile(content: string): string {
  const path = join(work, `input-${randomBytes(6).toString('hex')}`);
  writeFileSync(path, content);
  return path;
}

async function readAll(storage: FileStorage): Promise<string[]> {
  const keys: string[] = [];
  for await (const item of storage.list()) keys.push(item.key);
  return keys.sort();
}

/** What both backends must do; run against the folder and against a real S3-compatible server. */
function behavesAsStorage(make: () => FileStorage): void {
  it('stores a file under a server-made key, streams it back, lists and deletes it', async () => {
    const storage = make();
    const stored = await storage.putFile(localFile('referral bytes'), 'application/pdf');
    expect(stored).toEqual({ key: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/), size: 14 });
    const opened = await storage.open(stored.key);
    expect(opened?.size).toBe(14);
    expect(await text(opened!.stream)).toBe('referral bytes');
    expect(await readAll(storage)).toEqual([stored.key]);
    await storage.delete(stored.key);
    expect(await storage.open(stored.key)).toBeNull();
    expect(await readAll(storage)).toEqual([]);
  });

  it('answers null for a key it does not hold, and refuses what is not a key', async () => {
    const storage = make();
    expect(await storage.open('A'.repeat(32))).toBeNull();
    for (const key of ['../../etc/passwd', 'a/b', '..', '', 'short', 'x'.repeat(70)]) {
      await expect(storage.open(key)).rejects.toThrow(InvalidStorageKeyError);
      await expect(storage.delete(key)).rejects.toThrow(InvalidStorageKeyError);
    }
  });

  it('sweeps files no row names once they are old enough, and keeps the named ones', async () => {
    const storage = make();
    const named = await storage.putFile(localFile('named'), 'image/png');
    const orphan = await storage.putFile(localFile('orphan'), 'image/png');
    const fresh = await sweepOrphans(storage, async (keys) => new Set(keys.filter((key) => key === named.key)), {
      olderThanMs: 60_000,
      now: new Date(),
    });
    expect(fresh.deleted).toBe(0);
    const later = await sweepOrphans(storage, async (keys) => new Set(keys.filter((key) => key === named.key)), {
      olderThanMs: 60_000,
      now: new Date(Date.now() + 120_000),
    });
    expect(later.deleted).toBe(1);
    expect(await readAll(storage)).toEqual([named.key]);
    expect(await storage.open(orphan.key)).toBeNull();
  });
}

describe('folder storage', () => {
  behavesAsStorage(() => createFolderStorage(join(work, 'files')));

  it('leaves only the final file, readable by the server alone, and removes stale temporaries', async () => {
    const root = join(work, 'files');
    const storage = createFolderStorage(root);
    const stored = await storage.putFile(localFile('x'), 'application/pdf');
    expect(readdirSync(root)).toEqual([stored.key]);
    expect(statSync(join(root, stored.key)).mode & 0o777).toBe(0o600);
    // A crash mid-write leaves a temporary: removed once stale, never listed as a file.
    writeFileSync(join(root, '.tmp-crashed'), 'half');
    const old = new Date(Date.now() - 3_600_000);
    utimesSync(join(root, '.tmp-crashed'), old, old);
    writeFileSync(join(root, '.tmp-in-flight'), 'half');
    expect(await readAll(storage)).toEqual([stored.key]);
    await storage.removeStaleTemporaries(60_000);
    expect(readdirSync(root).sort()).toEqual(['.tmp-in-flight', stored.key].sort());
  });
});

describe('S3 storage against s3rver', () => {
  let s3: LocalS3;
  beforeAll(async () => {
    s3 = await startLocalS3();
  });
  afterAll(async () => s3.stop());

  behavesAsStorage(() => createS3Storage({ ...s3.settings, prefix: `run-${randomBytes(6).toString('hex')}/` }));
});

describe('parseS3Settings', () => {
  const complete = { S3_BUCKET: 'portal-files', S3_ACCESS_KEY_ID: 'id', S3_SECRET_ACCESS_KEY: 'secret' };

  it('answers null without S3_BUCKET, and the defaults with it', () => {
    expect(parseS3Settings({})).toBeNull();
    expect(parseS3Settings(complete)).toEqual({
      bucket: 'portal-files',
      endpoint: null,
      region: 'us-east-1',
      accessKeyId: 'id',
      secretAccessKey: 'secret',
      forcePathStyle: false,
      prefix: 'attachments/',
    });
  });

  it.each([
    [{ ...complete, S3_BUCKET: 'Bad_Bucket' }, /S3_BUCKET/],
    [{ ...complete, S3_ACCESS_KEY_ID: '' }, /S3_ACCESS_KEY_ID/],
    [{ ...complete, S3_SECRET_ACCESS_KEY: undefined }, /S3_SECRET_ACCESS_KEY/],
    [{ ...complete, S3_ENDPOINT: 'not a url' }, /S3_ENDPOINT/],
    [{ ...complete, S3_ENDPOINT: 'ftp://files' }, /S3_ENDPOINT/],
    [{ ...complete, S3_FORCE_PATH_STYLE: 'yes' }, /S3_FORCE_PATH_STYLE/],
    [{ ...complete, S3_PREFIX: '../up' }, /S3_PREFIX/],
  ])('names the wrong variable (%#)', (env, message) => {
    expect(() => parseS3Settings(env)).toThrow(message);
  });
});
