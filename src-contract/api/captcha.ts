import { z } from 'zod';

/**
 * The self-hosted proof-of-work check (ALTCHA) the server asks for when one connection or one
 * contact makes unusually many attempts (docs/rules/security.md#proof-of-work-check). No third
 * party is involved: the server signs a challenge, the browser finds the counter that solves it
 * and repeats the refused request with the answer in the CAPTCHA_HEADER header.
 */

/** The request header that carries a solved challenge (base64url of CaptchaSolution as JSON). */
export const CAPTCHA_HEADER = 'x-captcha';

export const CaptchaChallengeSchema = z.object({
  parameters: z.object({
    algorithm: z.string(),
    nonce: z.string(),
    salt: z.string(),
    cost: z.number(),
    keyLength: z.number(),
    keyPrefix: z.string(),
    keySignature: z.string().optional(),
    memoryCost: z.number().optional(),
    parallelism: z.number().optional(),
    expiresAt: z.number().optional(),
    data: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).optional(),
  }),
  signature: z.string().optional(),
});
export type CaptchaChallenge = z.infer<typeof CaptchaChallengeSchema>;

export const CaptchaSolutionSchema = z.object({
  challenge: CaptchaChallengeSchema,
  solution: z.object({ counter: z.number().int().min(0), derivedKey: z.string().regex(/^[0-9a-f]{2,256}$/) }),
});
export type CaptchaSolution = z.infer<typeof CaptchaSolutionSchema>;
