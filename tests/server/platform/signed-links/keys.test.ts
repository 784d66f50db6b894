import { describe, expect, it } from 'vitest';
import { createTestClock } from '../../../../src-server/platform/clock';
import {
  createSignedLinks,
  DERIVED_KEY_ID,
  deriveSignedLinkKey,
  parseSignedLinkKeys,
  signedLinkKeysFromConfig,
} from '../../../../src-server/platform/signed-links';
import { EXPECTED, HOUR, T0 } from './kit';

// Keys from one config string (an env var later) and, when none is configured, one key derived
// from the server secret with HKDF.

const secret1 = Buffer.alloc(32, 0x11);
const secret0 = Buffer.alloc(48, 0x22);
const b64 = (bytes: Buffer): string => bytes.toString('base64');
const request = { purpose: EXPECTED.purpose, audience: EXPECTED.audience, subject: 'ACC-1', ttlMs: HOUR };

describe('parseSignedLinkKeys', () => {
  it('reads ids, base64 or base64url secrets and retirement instants', () => {
    const keys = parseSignedLinkKeys(` kid1:${b64(secret1)} , kid0:${secret0.toString('base64url')}@2026-11-01T00:00:00Z`);
    expect(keys).toEqual([
      { id: 'kid1', secret: secret1 },
      { id: 'kid0', secret: secret0, retiredAt: new Date('2026-11-01T00:00:00Z') },
    ]);
    expect(parseSignedLinkKeys(`b:${b64(secret0)},a:${b64(secret1).replace(/=+$/, '')}@2026-11-01T10:00:00.5+10:00`)[1]?.retiredAt).toEqual(
      new Date('2026-11-01T00:00:00.500Z'),
    );
  });

  it('feeds createSignedLinks directly', () => {
    const clock = createTestClock(T0);
    const links = createSignedLinks({ keys: parseSignedLinkKeys(`kid1:${b64(secret1)},kid0:${b64(secret0)}@2026-11-01T00:00:00Z`), clock });
    expect(links.verify(links.sign(request), EXPECTED)).toMatchObject({ ok: true, keyId: 'kid1' });
  });

  it.each([
    ['', /empty/],
    ['   ', /empty/],
    [`kid1:${b64(secret1)},`, /entry 2 is empty/],
    ['kid1', /entry 1 has no ":"/],
    [`bad id:${b64(secret1)}`, /entry 1: key id/],
    [`:${b64(secret1)}`, /entry 1: key id/],
    [`${'k'.repeat(17)}:${b64(secret1)}`, /entry 1: key id/],
    [`a:${b64(secret1)},a:${b64(secret0)}`, /entry 2: key id "a" appears twice/],
    ['a:', /entry 1 \(key "a"\): secret is not valid/],
    ['a:not*base64!', /entry 1 \(key "a"\): secret is not valid/],
    [`a:${b64(secret1)}-_`, /not valid/],
    [`a:${b64(Buffer.alloc(31, 1))}`, /secret is 31 bytes; at least 32/],
    [`a:${b64(secret1)}@tomorrow`, /retiredAt "tomorrow" is not an ISO-8601 instant/],
    [`a:${b64(secret1)}@2026-11-01T00:00:00`, /not an ISO-8601 instant/],
    [`a:${b64(secret1)}@2026-13-01T00:00:00Z`, /not an ISO-8601 instant/],
    [`a:${b64(secret1)}@2026-11-01T00:00:00Z`, /every key is retired/],
  ])('refuses %j with a clear message', (text, message) => {
    expect(() => parseSignedLinkKeys(text)).toThrow(message);
  });

  it('never quotes the secret in an error', () => {
    const shortSecret = b64(Buffer.from('sentinel-secret-sentinel'));
    for (const text of [`a:${shortSecret}`, `bad id:${b64(secret1)}`, `a:${b64(secret1)}@nope`]) {
      try {
        parseSignedLinkKeys(text);
        throw new Error('expected a refusal');
      } catch (error) {
        expect((error as Error).message).not.toContain(shortSecret);
        expect((error as Error).message).not.toContain(b64(secret1));
      }
    }
  });
});

describe('deriveSignedLinkKey', () => {
  const serverSecret = 'a-server-secret-of-at-least-32-characters!';

  it('derives a stable 32-byte key, distinct from the server secret and per secret', () => {
    const key = deriveSignedLinkKey(serverSecret);
    expect(key.id).toBe(DERIVED_KEY_ID);
    expect(key.secret).toHaveLength(32);
    expect(deriveSignedLinkKey(serverSecret).secret.equals(key.secret)).toBe(true);
    expect(deriveSignedLinkKey(Buffer.from(serverSecret)).secret.equals(key.secret)).toBe(true);
    expect(deriveSignedLinkKey(`${serverSecret}x`).secret.equals(key.secret)).toBe(false);
    expect(key.secret.toString('utf8')).not.toContain(serverSecret.slice(0, 8));
  });

  it('supports retiring the derived key when explicit keys take over', () => {
    const retiredAt = new Date('2026-11-01T00:00:00Z');
    expect(deriveSignedLinkKey(serverSecret, { id: 'old', retiredAt })).toMatchObject({ id: 'old', retiredAt });
    expect(() => deriveSignedLinkKey(serverSecret, { id: 'no spaces' })).toThrow(/key id/);
  });

  it('refuses a server secret too short to derive from', () => {
    expect(() => deriveSignedLinkKey('short')).toThrow(/at least 32 bytes/);
  });

  it('signedLinkKeysFromConfig prefers configured keys and falls back to the derived key', () => {
    expect(signedLinkKeysFromConfig(`kid1:${b64(secret1)}`, serverSecret)).toEqual([{ id: 'kid1', secret: secret1 }]);
    expect(signedLinkKeysFromConfig(undefined, serverSecret)).toEqual([deriveSignedLinkKey(serverSecret)]);
    expect(signedLinkKeysFromConfig('  ', serverSecret)).toEqual([deriveSignedLinkKey(serverSecret)]);
    expect(() => signedLinkKeysFromConfig('broken', serverSecret)).toThrow(/no ":"/);
  });
});
