import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { describe, expect, it } from 'vitest';
import type { CaptchaChallenge } from '@contract/api/captcha';
import { CHALLENGE_TTL_MS, createCaptcha, type Captcha } from '../../../../src-server/platform/captcha/captcha';
import { createTestClock } from '../../../../src-server/platform/clock';
import { TEST_CAPTCHA_WORK } from '../../helpers/build-server';
import { solvedCaptcha } from '../../helpers/captcha';
import { backends, SEED_NOW } from '../../helpers/database';
import { useTestApp, useTestDatabase } from '../../helpers/test-app';

// The proof-of-work check (docs/rules/security.md#proof-of-work-check): an answer verifies only
// for a challenge this server signed, within its lifetime by the server's clock, and only once.

const encode = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

async function solve(challenge: CaptchaChallenge): Promise<{ counter: number; derivedKey: string }> {
  const solution = await solveChallenge({ challenge, deriveKey });
  if (solution === null) throw new Error('unsolved');
  return { counter: solution.counter, derivedKey: solution.derivedKey };
}

describe.each(backends())('proof-of-work check on %s', (backend) => {
  const database = useTestDatabase({ backend, state: 'migrated' });
  const clock = createTestClock(SEED_NOW);
  const make = (secret = 's'.repeat(40)): Captcha =>
    createCaptcha({ db: database.db, clock, secret: () => Promise.resolve(secret), work: TEST_CAPTCHA_WORK });

  it('accepts a solved challenge once, and refuses the same answer again', async () => {
    const captcha = make();
    const challenge = await captcha.challenge();
    const header = encode({ challenge, solution: await solve(challenge) });
    expect(await captcha.verify(header)).toBe(true);
    expect(await captcha.verify(header)).toBe(false);
  });

  it('refuses a wrong key, a challenge signed with another secret, and an edited challenge', async () => {
    const captcha = make();
    const challenge = await captcha.challenge();
    const solution = await solve(challenge);
    // The derived key is the proof of work: any other key (here: its last byte changed) fails.
    const wrongKey = `${solution.derivedKey.slice(0, -2)}${solution.derivedKey.endsWith('00') ? '01' : '00'}`;
    expect(await captcha.verify(encode({ challenge, solution: { ...solution, derivedKey: wrongKey } }))).toBe(false);

    const foreign = await make('f'.repeat(40)).challenge();
    expect(await captcha.verify(encode({ challenge: foreign, solution: await solve(foreign) }))).toBe(false);

    // Moving the expiry later breaks the signature.
    const edited = { ...challenge, parameters: { ...challenge.parameters, data: { expires: Date.parse(SEED_NOW) + 24 * 3600_000 } } };
    expect(await captcha.verify(encode({ challenge: edited, solution }))).toBe(false);
    expect(await captcha.verify(encode({ challenge, solution }))).toBe(true);
  });

  it('refuses an answer once its challenge is older than the lifetime, by the injected clock', async () => {
    const captcha = make();
    const challenge = await captcha.challenge();
    const header = encode({ challenge, solution: await solve(challenge) });
    clock.advance(CHALLENGE_TTL_MS);
    expect(await captcha.verify(header)).toBe(false);
  });

  it('refuses missing, oversized and malformed header values without throwing', async () => {
    const captcha = make();
    for (const value of [undefined, '', ['a', 'b'], 'not base64!', 'x'.repeat(5000), encode({ challenge: 1 }), encode('text')]) {
      expect(await captcha.verify(value)).toBe(false);
    }
  });
});

describe('GET /api/captcha/challenge', () => {
  const server = useTestApp({ seeded: false });

  it('answers anyone a fresh signed challenge, never cached, that the server then accepts once', async () => {
    const first = await server.app.inject({ method: 'GET', url: '/api/captcha/challenge' });
    expect(first.statusCode).toBe(200);
    expect(first.headers['cache-control']).toBe('no-store');
    const second = await server.app.inject({ method: 'GET', url: '/api/captcha/challenge' });
    expect(first.json<CaptchaChallenge>().parameters.nonce).not.toBe(second.json<CaptchaChallenge>().parameters.nonce);
    expect(first.json<CaptchaChallenge>().signature).toMatch(/^[0-9a-f]{64}$/);
    expect(await solvedCaptcha(server.app)).toMatch(/^[A-Za-z0-9_-]+$/);
  });
});
