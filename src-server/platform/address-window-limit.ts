import { tooManyRequests } from './errors';

/**
 * At most `limit` requests per client address in a sliding window, counted in this process's
 * memory: for public calls that cost little each but must not be walked by a script (temporary
 * questionnaire keys, the practice search). Past the limit the caller gets 429 with the wait until
 * the oldest counted request leaves the window. Quiet addresses are forgotten once the map is large.
 */
export function addressWindowLimit(options: { limit: number; windowMs: number; message: string; now: () => number }) {
  const { limit, windowMs, message, now } = options;
  const seen = new Map<string, number[]>();
  return {
    /** Counts one request from `address`, or throws 429 when it is past the limit. */
    take(address: string): void {
      const at = now();
      const recent = (seen.get(address) ?? []).filter((time) => at - time < windowMs);
      const oldest = recent[0];
      if (recent.length >= limit && oldest !== undefined) {
        seen.set(address, recent);
        throw tooManyRequests(message, (oldest + windowMs - at) / 1000);
      }
      recent.push(at);
      seen.set(address, recent);
      if (seen.size > 10_000) for (const [key, times] of seen) if (times.every((time) => at - time >= windowMs)) seen.delete(key);
    },
  };
}
