import type { AxiosInstance } from 'axios';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/web/pbkdf2';
import { CAPTCHA_HEADER, CaptchaChallengeSchema } from '@contract/api/captcha';

/**
 * Solves the server's proof-of-work check (docs/rules/security.md#proof-of-work-check): fetch a
 * challenge, find its key with the browser's WebCrypto, and answer the value of the X-Captcha
 * header. Loaded only when a request was refused with captcha_required, so the check's code
 * never weighs on a page that does not need it.
 */

export { CAPTCHA_HEADER };

/** Longest a patient waits for the check before the refused request fails as it was. */
const SOLVE_TIMEOUT_MS = 60_000;

function base64Url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The X-Captcha header value for a freshly solved challenge; throws when it cannot be solved in time. */
export async function solveCaptcha(http: AxiosInstance): Promise<string> {
  const { data } = await http.get<unknown>('/api/captcha/challenge');
  const challenge = CaptchaChallengeSchema.parse(data);
  const solution = await solveChallenge({ challenge, deriveKey, timeout: SOLVE_TIMEOUT_MS });
  if (solution === null) throw new Error('The proof-of-work check could not be solved in time');
  return base64Url(JSON.stringify({ challenge, solution: { counter: solution.counter, derivedKey: solution.derivedKey } }));
}
