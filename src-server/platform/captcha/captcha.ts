import { createHmac } from 'node:crypto';
import { createChallenge, randomInt, verifySolution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { CAPTCHA_HEADER, CaptchaSolutionSchema, type CaptchaChallenge } from '@contract/api/captcha';
import type { Queryable } from '../../db/connection';
import type { Clock } from '../clock';
import { AppError } from '../errors';
import { createCaptchaRepository } from './captcha-repository';

/**
 * The proof-of-work check (docs/rules/security.md#proof-of-work-check), self-hosted with
 * altcha-lib so no third party sees patients. The server signs a challenge whose answer is a
 * counter the browser must find by trying PBKDF2 keys one after another; checking an answer
 * costs the server one key. An answer is accepted once (its nonce is recorded until the
 * challenge expires) and only within CHALLENGE_TTL_MS of its making, by the injected clock.
 */

export const CHALLENGE_TTL_MS = 10 * 60_000;
/** A header longer than this is not one of our answers (a challenge with its answer is ~600 bytes). */
const MAX_HEADER_LENGTH = 4096;
const ALGORITHM = 'PBKDF2/SHA-256';

/**
 * How much work a challenge asks for: PBKDF2 iterations per try, and the range the secret
 * counter is drawn from (the browser tries counters from 0, so the mean work is about
 * cost × (min + max) / 2 iterations: about a second in a phone's browser by default).
 */
export interface CaptchaWork {
  cost: number;
  minCounter: number;
  maxCounter: number;
}

export const DEFAULT_CAPTCHA_WORK: CaptchaWork = { cost: 500, minCounter: 1000, maxCounter: 3000 };

export interface Captcha {
  /** A new signed challenge (GET /api/captcha/challenge). */
  challenge(): Promise<CaptchaChallenge>;
  /**
   * Whether a CAPTCHA_HEADER value is the answer to an unexpired challenge this server signed,
   * not used before; a true answer is used up. Missing, malformed, forged, expired and replayed
   * values are false.
   */
  verify(headerValue: string | string[] | undefined): Promise<boolean>;
}

export interface CaptchaDeps {
  db: Queryable;
  clock: Clock;
  /** The server secret (SESSION_SECRET or the database's own); the signing keys derive from it. */
  secret: () => Promise<string>;
  work?: CaptchaWork;
}

/** 403 captcha_required: the web client solves a challenge and repeats the request once. */
export function captchaRequired(): AppError {
  return new AppError('captcha_required', 403, 'We need a moment to check this request comes from a person. Please try again.', {
    header: CAPTCHA_HEADER,
  });
}

function decodeHeader(headerValue: string | string[] | undefined): unknown {
  if (typeof headerValue !== 'string' || headerValue.length === 0 || headerValue.length > MAX_HEADER_LENGTH) return null;
  if (!/^[A-Za-z0-9_-]+={0,2}$/.test(headerValue)) return null;
  try {
    return JSON.parse(Buffer.from(headerValue, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
}

export function createCaptcha(deps: CaptchaDeps): Captcha {
  const work = deps.work ?? DEFAULT_CAPTCHA_WORK;
  const keys = async (): Promise<{ hmacSignatureSecret: string; hmacKeySignatureSecret: string }> => {
    const secret = await deps.secret();
    const derive = (purpose: string): string => createHmac('sha256', secret).update(`captcha:${purpose}`).digest('hex');
    return { hmacSignatureSecret: derive('signature'), hmacKeySignatureSecret: derive('key') };
  };

  return {
    async challenge() {
      // The expiry goes into the signed data and is checked by our clock, not altcha's Date.now().
      const expires = deps.clock.now().getTime() + CHALLENGE_TTL_MS;
      const challenge = await createChallenge({
        algorithm: ALGORITHM,
        cost: work.cost,
        counter: randomInt(work.minCounter, work.maxCounter),
        deriveKey,
        data: { expires },
        ...(await keys()),
      });
      return challenge as CaptchaChallenge;
    },

    async verify(headerValue) {
      const parsed = CaptchaSolutionSchema.safeParse(decodeHeader(headerValue));
      if (!parsed.success) return false;
      const { challenge, solution } = parsed.data;
      const expires = challenge.parameters.data?.expires;
      const now = deps.clock.now();
      if (typeof expires !== 'number' || expires <= now.getTime() || expires > now.getTime() + CHALLENGE_TTL_MS) return false;
      if (challenge.parameters.algorithm !== ALGORITHM || challenge.parameters.cost !== work.cost) return false;
      let verified = false;
      try {
        const result = await verifySolution({ challenge, solution, deriveKey, ...(await keys()) });
        verified = result.verified;
      } catch {
        verified = false;
      }
      if (!verified) return false;
      return createCaptchaRepository(deps.db).spend(challenge.parameters.nonce, new Date(expires), now);
    },
  };
}
