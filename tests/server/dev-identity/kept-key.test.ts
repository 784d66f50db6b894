import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SigningKeyRing } from '../../../src-server/dev-identity/keys';
import { startDevIdentityProvider } from '../../../src-server/dev-identity/provider';

/** The demo provider keeps its signing key in DATA_DIR between starts (dev-identity/keys.ts). */
describe("the demo identity provider's kept signing key", () => {
  let dir = '';
  let file = '';
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'portal-idp-key-'));
    file = join(dir, 'dev-identity', 'signing-key.json');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('makes a key on the first start, readable by its owner only, and signs with the same key on the next', async () => {
    const first = new SigningKeyRing();
    const kid = await first.restoreOrRotate(file);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig', kid, d: expect.any(String) });
    const second = new SigningKeyRing();
    expect(await second.restoreOrRotate(file)).toBe(kid);
    expect(second.publicJwks()).toEqual(first.publicJwks());
  });

  it.each([
    ['not JSON', '{ not json'],
    ['a public key only', JSON.stringify({ kty: 'RSA', alg: 'RS256', n: 'AQAB', e: 'AQAB', kid: 'public-only' })],
  ])('replaces a kept file that is %s with a new key', async (_label, content) => {
    const ring = new SigningKeyRing();
    await ring.restoreOrRotate(file);
    writeFileSync(file, content);
    const kid = await new SigningKeyRing().restoreOrRotate(file);
    expect(kid).not.toBe('public-only');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ kid, d: expect.any(String) });
  });

  it('publishes the same key after a restart, so tokens it signed before still verify', async () => {
    const portalUrl = 'http://127.0.0.1:3997';
    const before = await startDevIdentityProvider({ port: 0, portalUrl, keyFile: file });
    const published = before.publicJwks();
    await before.close();
    const after = await startDevIdentityProvider({ port: 0, portalUrl, keyFile: file });
    try {
      expect(after.publicJwks()).toEqual(published);
    } finally {
      await after.close();
    }
    // Without a kept key every start makes a new one.
    const fresh = await startDevIdentityProvider({ port: 0, portalUrl });
    expect(fresh.publicJwks()).not.toEqual(published);
    await fresh.close();
  });
});
