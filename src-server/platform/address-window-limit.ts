import { createHmac } from 'node:crypto';
import type { Database } from '../db/connection';
import { createAddressWindowRepository } from './address-window-repository';
import { tooManyRequests } from './errors';

/** What an address window limit counts with: the database every server shares, the server secret and the time. */
export interface AddressWindowDeps {
  db: Database;
  /** Addresses are kept only as HMACs keyed with it. */
  secret: () => Promise<string>;
  now: () => number;
}

/**
 * At most `limit` requests per client address in a sliding window, for public calls that cost
 * little each but must not be walked by a script (temporary questionnaire keys, the practice
 * search). Counted in the database (table address_window_hit), so that every server behind a proxy
 * counts the same requests. Past the limit the caller gets 429 with the wait until the oldest
 * counted request leaves the window.
 */
export function addressWindowLimit(options: { kind: string; limit: number; windowMs: number; message: string; deps: AddressWindowDeps }) {
  const { kind, limit, windowMs, message, deps } = options;
  const repository = createAddressWindowRepository(deps.db);
  return {
    /** Counts one request from `address`, or throws 429 when it is past the limit. */
    async take(address: string): Promise<void> {
      const at = deps.now();
      const subject = createHmac('sha256', await deps.secret())
        .update(`ip:${address}`)
        .digest('hex');
      const oldest = await repository.take({ kind, subject, at: new Date(at), since: new Date(at - windowMs), limit });
      if (oldest !== null) throw tooManyRequests(message, (oldest.getTime() + windowMs - at) / 1000);
    },
    /** Deletes the requests no window counts any more (a periodic job). */
    sweep: (): Promise<number> => repository.sweep(kind, new Date(deps.now() - windowMs)),
  };
}
