import { describe, expect, it } from 'vitest';
import { addressWindowLimit, type AddressWindowDeps } from '../../../src-server/platform/address-window-limit';
import { isAppError } from '../../../src-server/platform/errors';
import { backends } from '../helpers/database';
import { useTestDatabase } from '../helpers/test-app';

/**
 * The per-address window limits (platform/address-window-limit.ts) count in the database: two
 * limiters on one database stand for two servers behind a proxy and count the same requests.
 */

const WINDOW_MS = 10 * 60_000;

for (const backend of backends()) {
  describe(`address window limit (${backend})`, () => {
    const database = useTestDatabase({ backend, state: 'migrated' });
    let now = Date.parse('2026-11-28T10:00:00Z');
    const deps = (): AddressWindowDeps => ({ db: database.db, secret: () => Promise.resolve('s'.repeat(64)), now: () => now });
    const limiter = () => addressWindowLimit({ kind: 'probe', limit: 3, windowMs: WINDOW_MS, message: 'Slow down.', deps: deps() });

    async function refusal(take: Promise<void>): Promise<{ statusCode: number; retryAfter: unknown }> {
      const error = await take.then(
        () => null,
        (thrown: unknown) => thrown,
      );
      if (!isAppError(error)) throw new Error('expected a refusal');
      return { statusCode: error.statusCode, retryAfter: (error.details as { retryAfterSeconds?: unknown }).retryAfterSeconds };
    }

    it('counts the requests of both servers together, per address, and frees as the window slides', async () => {
      const [serverA, serverB] = [limiter(), limiter()];
      await serverA.take('203.0.113.5');
      now += 60_000;
      await serverB.take('203.0.113.5');
      await serverA.take('203.0.113.5');
      // The fourth in the window is refused on either server; the wait runs to the oldest's end.
      expect(await refusal(serverB.take('203.0.113.5'))).toEqual({ statusCode: 429, retryAfter: (WINDOW_MS - 60_000) / 1000 });
      expect((await refusal(serverA.take('203.0.113.5'))).statusCode).toBe(429);
      // Another address is counted on its own.
      await serverB.take('198.51.100.7');
      // Once the oldest leaves the window, one more is taken.
      now += WINDOW_MS - 60_000 + 1;
      await serverB.take('203.0.113.5');
    });

    it('keeps the address only as an HMAC, and the sweep deletes what no window counts', async () => {
      const rows = await database.db.query<{ subject: string }>(`select subject from address_window_hit where kind = 'probe'`);
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) expect(row.subject).toMatch(/^[0-9a-f]{64}$/);
      // A window later every request so far has left it; one taken now stays.
      now += WINDOW_MS;
      await limiter().take('192.0.2.1');
      expect(await limiter().sweep()).toBe(rows.length);
      expect(await database.db.query(`select 1 from address_window_hit`)).toHaveLength(1);
    });
  });
}
