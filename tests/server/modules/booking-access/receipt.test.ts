import { describe, expect, it } from 'vitest';
import { BOOKING_RECEIPT_COOKIE, createBookingReceipts, RECEIPT_HOURS } from '../../../../src-server/modules/booking-access/public';

// The booking receipt (docs/rules/booking.md#confirmation): bound to one booking key, signed with
// the server secret, ended after RECEIPT_HOURS whatever the browser keeps.

const KEY = 'DQZGrZ3wpC5qCgHhYxQeMw';

function receipts(secret = 's'.repeat(64)) {
  let now = new Date('2026-03-10T00:00:00Z');
  const clock = { now: () => now };
  return {
    receipts: createBookingReceipts(() => Promise.resolve(secret), clock),
    travel: (ms: number) => {
      now = new Date(now.getTime() + ms);
    },
  };
}

const cookieOf = (setCookie: string) => setCookie.split(';')[0] ?? '';

describe('booking receipts', () => {
  it('hold for their booking only, and not for a changed byte or another secret', async () => {
    const { receipts: made } = receipts();
    const cookie = cookieOf(await made.issue(KEY));
    expect(cookie.startsWith(`${BOOKING_RECEIPT_COOKIE}=`)).toBe(true);
    expect(cookie).not.toContain(KEY);
    expect(await made.holds(cookie, KEY)).toBe(true);
    expect(await made.holds(cookie, 'RTZZ7AsePVS1c6abT-l4BA')).toBe(false);
    expect(await made.holds(undefined, KEY)).toBe(false);
    expect(await made.holds(`${BOOKING_RECEIPT_COOKIE}=garbage`, KEY)).toBe(false);
    const flipped = cookie.replace(/.$/, (last) => (last === 'A' ? 'B' : 'A'));
    expect(await made.holds(flipped, KEY)).toBe(false);
    expect(await receipts('t'.repeat(64)).receipts.holds(cookie, KEY)).toBe(false);
  });

  it('end after RECEIPT_HOURS', async () => {
    const { receipts: made, travel } = receipts();
    const cookie = cookieOf(await made.issue(KEY));
    travel(RECEIPT_HOURS * 3_600_000 - 1_000);
    expect(await made.holds(cookie, KEY)).toBe(true);
    travel(1_000);
    expect(await made.holds(cookie, KEY)).toBe(false);
  });
});
