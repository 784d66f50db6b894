import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import type { FastifyInstance } from 'fastify';
import { CAPTCHA_HEADER, CaptchaChallengeSchema } from '@contract/api/captcha';

/**
 * Asks the app for a proof-of-work challenge and solves it for real, as the browser does
 * (src-web/api/captcha.ts); answers the value for the CAPTCHA_HEADER request header.
 */
export async function solvedCaptcha(app: FastifyInstance): Promise<string> {
  const response = await app.inject({ method: 'GET', url: '/api/captcha/challenge' });
  if (response.statusCode !== 200) throw new Error(`challenge: ${response.statusCode} ${response.body}`);
  const challenge = CaptchaChallengeSchema.parse(response.json());
  const solution = await solveChallenge({ challenge, deriveKey });
  if (solution === null) throw new Error('the challenge could not be solved');
  return Buffer.from(JSON.stringify({ challenge, solution: { counter: solution.counter, derivedKey: solution.derivedKey } })).toString(
    'base64url',
  );
}

/** The request headers that carry a solved challenge. */
export async function captchaHeaders(app: FastifyInstance): Promise<Record<string, string>> {
  return { [CAPTCHA_HEADER]: await solvedCaptcha(app) };
}
