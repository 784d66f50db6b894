import type { Queryable } from '../../db/connection';
import type { Hl7Outbox } from '../../platform/hl7/hl7-outbox';
import { availabilityVersion } from '../availability/public';
import { createAppointmentsRepository, type BookingRow } from './repository';

/**
 * The end of a booking held ON_HOLD for a screening review (docs/rules/screening-review.md), inside
 * the review's transaction: approved, its appointments are BOOKED at the same time; declined or
 * expired, they are cancelled with the note and the time is free again (the caller applies
 * `freed` to the availability store once the transaction commits).
 */

export type HeldBookingEnd = 'approved' | 'declined' | 'expired';

export interface SettledHold {
  /** The held rows as they were (the patient's mail lists them). */
  rows: BookingRow[];
  /** Appointment ids whose time was freed, and the availability version after it. */
  freed: { ids: string[]; version: number } | null;
}

/** Null when nothing of the booking is ON_HOLD any more (the patient or the clinic cancelled it meanwhile). */
export async function settleHeldBooking(
  tx: Queryable,
  bookingKey: string,
  end: { outcome: HeldBookingEnd; actor: string; note: string | null; now: Date; hl7: Hl7Outbox },
): Promise<SettledHold | null> {
  const repository = createAppointmentsRepository(tx);
  const rows = (await repository.lockBookingRows(bookingKey, tx)).filter((row) => row.status === 'ON_HOLD');
  if (rows.length === 0) return null;
  const ids = rows.map((row) => row.id);
  const approved = end.outcome === 'approved';
  const toStatus = approved ? 'BOOKED' : 'CANCELED';
  await repository.setStatus(ids, toStatus, end.now, tx);
  await repository.logChange(
    {
      bookingKey,
      action: approved ? 'REVIEW' : 'CANCEL',
      fromStatus: 'ON_HOLD',
      toStatus,
      note: end.note,
      details: { review: end.outcome },
      now: end.now,
      actor: 'staff',
    },
    tx,
  );
  await repository.audit(
    {
      actor: end.actor,
      action: `appointment.screening_${end.outcome}`,
      subjectType: 'appointment',
      subjectId: ids.join(','),
      details: { note: end.note !== null },
      now: end.now,
    },
    tx,
  );
  // The RIS learns the booking is firm (S14, modified) or gone (S15).
  await end.hl7.queue(tx, approved ? 'S14' : 'S15', ids, { now: end.now, reason: approved ? null : end.note });
  return { rows, freed: approved ? null : { ids, version: await availabilityVersion(tx) } };
}
