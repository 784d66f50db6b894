import { describe, expect, it } from 'vitest';
import { randomToken } from '../../../src-server/platform/ids';

describe('randomToken', () => {
  it('makes URL-safe tokens of at least 128 bits by default', () => {
    const token = randomToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(Buffer.from(token, 'base64url')).toHaveLength(16);
    expect(randomToken(32)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('never repeats in 10,000 draws', () => {
    const seen = new Set(Array.from({ length: 10_000 }, () => randomToken()));
    expect(seen.size).toBe(10_000);
  });

  it('refuses fewer than 16 bytes', () => {
    expect(() => randomToken(15)).toThrow(RangeError);
    expect(() => randomToken(16.5)).toThrow(RangeError);
  });
});
