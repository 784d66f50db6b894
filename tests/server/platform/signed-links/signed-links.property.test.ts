import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EXPECTED, HOUR, setup, TOKEN_ALPHABET } from './kit';

/**
 * Property (C6): a token is never accepted after any single-character change, truncation or
 * extension. The MAC covers every character before the tag and the tag must be canonical
 * base64url, so even a change in the tag's unused low bits is refused.
 */

const claimText = (maxLength: number) =>
  fc.string({
    unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.:/ '.split('')),
    minLength: 1,
    maxLength,
  });

const requestArbitrary = fc.record({
  purpose: claimText(64),
  audience: claimText(128),
  subject: claimText(256),
  ttlMs: fc.integer({ min: 1000, max: 30 * 24 * HOUR }),
});

describe('signed links: tamper property', () => {
  const { links } = setup();

  it('flipping any one character to any other token character is refused', () => {
    fc.assert(
      fc.property(requestArbitrary, fc.nat(), fc.constantFrom(...TOKEN_ALPHABET), (request, position, replacement) => {
        const token = links.sign(request);
        const expected = { purpose: request.purpose, audience: request.audience };
        expect(links.verify(token, expected).ok).toBe(true);
        const index = position % token.length;
        fc.pre(token[index] !== replacement);
        const tampered = token.slice(0, index) + replacement + token.slice(index + 1);
        expect(links.verify(tampered, expected).ok).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });

  it('truncating anywhere or appending anything is refused', () => {
    fc.assert(
      fc.property(
        requestArbitrary,
        fc.nat(),
        fc.string({ unit: fc.constantFrom(...TOKEN_ALPHABET), minLength: 1, maxLength: 8 }),
        (request, cut, suffix) => {
          const token = links.sign(request);
          const expected = { purpose: request.purpose, audience: request.audience };
          expect(links.verify(token.slice(0, cut % token.length), expected).ok).toBe(false);
          expect(links.verify(token + suffix, expected).ok).toBe(false);
          expect(links.verify(suffix + token, expected).ok).toBe(false);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('arbitrary strings never throw and are never accepted', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 1200 }),
          fc.string({ unit: 'binary', maxLength: 300 }),
          fc.string({ unit: fc.constantFrom(...TOKEN_ALPHABET) }),
        ),
        (text) => {
          const result = links.verify(text, EXPECTED);
          expect(result.ok).toBe(false);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('exhaustively: every position of one token, every replacement character', () => {
    const token = links.sign({ purpose: EXPECTED.purpose, audience: EXPECTED.audience, subject: 'ACC-2026-000123', ttlMs: HOUR });
    let tried = 0;
    for (let index = 0; index < token.length; index++) {
      for (const replacement of TOKEN_ALPHABET) {
        if (token[index] === replacement) continue;
        const tampered = token.slice(0, index) + replacement + token.slice(index + 1);
        const result = links.verify(tampered, EXPECTED);
        if (result.ok) throw new Error(`accepted a change at ${index} to ${replacement}`);
        tried++;
      }
    }
    expect(tried).toBe(token.length * (TOKEN_ALPHABET.length - 1));
  });
});
