import { expect } from 'vitest';
import type { TestClock } from '../../../src-server/platform/clock';

/** How often an open page pings its keep-alive route (the web client's default, DEFAULT_KEEP_ALIVE_SECONDS). */
export const PING_EVERY_MS = 10 * 60_000;

/**
 * Pings a session every PING_EVERY_MS up to its maximum lifetime `maxMs` (each ping 204), then
 * once at the maximum (401): pings slide the idle timeout but never past the maximum.
 */
export async function expectPingsEndAtMaximum(clock: TestClock, maxMs: number, ping: () => Promise<number>): Promise<void> {
  const start = clock.now().getTime();
  while (clock.now().getTime() + PING_EVERY_MS < start + maxMs) {
    clock.advance(PING_EVERY_MS);
    expect(await ping()).toBe(204);
  }
  clock.set(new Date(start + maxMs));
  expect(await ping()).toBe(401);
}
