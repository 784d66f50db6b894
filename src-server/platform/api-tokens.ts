import { createHash, timingSafeEqual } from 'node:crypto';
import { read, type Env } from '../config-parsers';

/**
 * Bearer tokens of machine clients (staff tools, the RIS and PACS integration): only the sha256
 * digests are configured, never the tokens, so a copy of the configuration cannot call the API.
 */

/** The presented token's sha256 against every configured digest, in constant time (no early exit). */
export function matchesTokenDigest(token: string, digests: readonly string[]): boolean {
  const presented = createHash('sha256').update(token, 'utf8').digest();
  let match = false;
  for (const digest of digests) {
    const expected = Buffer.from(digest, 'hex');
    if (expected.length === presented.length && timingSafeEqual(expected, presented)) match = true;
  }
  return match;
}

/** `Authorization: Bearer <token>` (printable ASCII, at most 500 characters), or null. */
export function bearerTokenOf(header: unknown): string | null {
  const match = typeof header === 'string' ? /^Bearer ([\x21-\x7e]{1,500})$/.exec(header) : null;
  return match?.[1] ?? null;
}

/** A comma-separated list of sha256 hex digests from the environment; anything else is a problem (never quoted back). */
export function parseTokenDigests(env: Env, name: string, problem: (name: string, message: string) => void): string[] {
  const digests: string[] = [];
  for (const digest of (read(env, name) ?? '').split(',').map((part) => part.trim().toLowerCase())) {
    if (digest === '') continue;
    if (/^[0-9a-f]{64}$/.test(digest)) digests.push(digest);
    // Not quoted back: a token pasted here by mistake is a secret.
    else
      problem(
        name,
        'must be comma-separated sha256 hex digests (64 hex characters each), e.g. the output of `printf %s TOKEN | sha256sum`',
      );
  }
  return digests;
}
