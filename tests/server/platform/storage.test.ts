import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileStorage, InvalidStorageKeyError } from '../../../src-server/platform/storage';

describe('createFileStorage', () => {
  let root = '';
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'portal-files-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('stores bytes under a server-generated key and reads them back', async () => {
    const storage = createFileStorage(join(root, 'files'));
    const key = await storage.put(new TextEncoder().encode('referral'));
    expect(key).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect((await storage.get(key))?.toString()).toBe('referral');
    expect(await storage.size(key)).toBe(8);
    // Only the final file remains: no temporary left behind.
    expect(readdirSync(join(root, 'files'))).toEqual([key]);
    await storage.delete(key);
    expect(await storage.get(key)).toBeNull();
    expect(await storage.size(key)).toBeNull();
  });

  it.each(['../../etc/passwd', 'a/b', '..', '', 'short', 'x'.repeat(70)])('refuses %j as a key', async (key) => {
    const storage = createFileStorage(root);
    await expect(storage.get(key)).rejects.toThrow(InvalidStorageKeyError);
    await expect(storage.delete(key)).rejects.toThrow(InvalidStorageKeyError);
  });
});
