import { randomBytes } from 'node:crypto';

/** Below 128 bits a token could be guessed by a determined attacker (docs/rules/security.md#tokens). */
export const MIN_TOKEN_BYTES = 16;

/**
 * An unguessable URL-safe token (booking keys, share tokens, file names).
 * @param bytes - bytes of CSPRNG output, at least 16 (128 bits).
 */
export function randomToken(bytes: number = MIN_TOKEN_BYTES): string {
  if (!Number.isInteger(bytes) || bytes < MIN_TOKEN_BYTES) {
    throw new RangeError(`randomToken needs at least ${MIN_TOKEN_BYTES} bytes, got ${bytes}`);
  }
  return randomBytes(bytes).toString('base64url');
}
