import { createHash } from 'node:crypto';
import type { Queryable } from '../../db/connection';

/** The solutions already spent (table captcha_solution_used): each may unlock one request. */
export function createCaptchaRepository(db: Queryable) {
  return {
    /**
     * Spends a solution's nonce until it expires: true the first time, false when it was spent
     * before. Spent nonces past their expiry are forgotten first.
     */
    async spend(nonce: string, expiresAt: Date, now: Date, tx: Queryable = db): Promise<boolean> {
      const nonceSha256 = createHash('sha256').update(nonce).digest('hex');
      await tx.query(`delete from captcha_solution_used where expires_at < $1`, [now.toISOString()]);
      const inserted = await tx.query(
        `insert into captcha_solution_used (nonce_sha256, expires_at) values ($1, $2)
         on conflict (nonce_sha256) do nothing returning nonce_sha256`,
        [nonceSha256, expiresAt.toISOString()],
      );
      return inserted.length === 1;
    },
  };
}
