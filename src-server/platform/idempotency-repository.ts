import type { Queryable } from '../db/connection';
import { appError } from './errors';

/**
 * Stored answers of writes sent with an Idempotency-Key (table idempotency_record): a retry with
 * the same key and request gets the first answer again; another request under the same key is refused.
 */

export type IdempotencyRow = {
  request_hash: string;
  status_code: number;
  response: unknown;
};

export function createIdempotencyRepository(db: Queryable) {
  return {
    async find(scope: string, key: string, tx: Queryable = db): Promise<IdempotencyRow | null> {
      const rows = await tx.query<IdempotencyRow>(
        'select request_hash, status_code, response from idempotency_record where scope = $1 and key = $2::uuid',
        [scope, key],
      );
      return rows[0] ?? null;
    },

    async insert(
      input: { scope: string; key: string; requestHash: string; statusCode: number; response: unknown; now: Date },
      tx: Queryable = db,
    ): Promise<void> {
      await tx.query(
        `insert into idempotency_record (scope, key, request_hash, status_code, response, created_at)
         values ($1, $2::uuid, $3, $4, $5::jsonb, $6::timestamptz)`,
        [input.scope, input.key, input.requestHash, input.statusCode, JSON.stringify(input.response), input.now.toISOString()],
      );
    },

    /**
     * The stored answer for this key, or null when there is none; a different request under the
     * same key is refused (422). `what` names the kind of write in the message: "booking" or "change".
     */
    async replay<T>(scope: string, key: string, requestHash: string, what: 'booking' | 'change'): Promise<T | null> {
      const existing = await this.find(scope, key);
      if (existing === null) return null;
      if (existing.request_hash !== requestHash) {
        throw appError(
          'idempotency_key_reused',
          422,
          `This Idempotency-Key was already used for a different request. Send a new key for a new ${what}.`,
        );
      }
      return existing.response as T;
    },
  };
}

export type IdempotencyRepository = ReturnType<typeof createIdempotencyRepository>;
