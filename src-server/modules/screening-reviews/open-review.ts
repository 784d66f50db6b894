import { randomUUID } from 'node:crypto';
import type { Queryable } from '../../db/connection';
import { createScreeningReviewsRepository } from './repository';

/**
 * Opening a screening review inside the booking's transaction (docs/rules/screening-review.md):
 * apart from the review service, which settles bookings through appointments, so the booking
 * module that calls this does not depend on appointments in turn.
 */

const HOUR = 3_600_000;
/**
 * When an undecided review expires: the provider's hours before the first appointment; for a
 * booking made closer than that, halfway between the booking and the appointment, so staff still
 * have time and the patient still hears before setting out.
 */
export function reviewExpiry(now: Date, firstStartMs: number, hoursBefore: number): Date {
  const before = firstStartMs - hoursBefore * HOUR;
  return new Date(before > now.getTime() ? before : now.getTime() + Math.floor((firstStartMs - now.getTime()) / 2));
}

/** Writes the pending review of a booking just held ON_HOLD, inside the booking's transaction. */
export async function openScreeningReview(
  tx: Queryable,
  booking: { bookingKey: string; firstStartMs: number; now: Date; reason: string | null },
): Promise<void> {
  const repository = createScreeningReviewsRepository(tx);
  const expiresAt = reviewExpiry(booking.now, booking.firstStartMs, await repository.expireHoursBefore(tx));
  await repository.insert(
    { id: randomUUID(), bookingKey: booking.bookingKey, createdAt: booking.now, expiresAt, reason: booking.reason },
    tx,
  );
}
