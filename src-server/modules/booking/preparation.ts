import { PreparationPartSchema, preparationText, type PreparationPart } from '@contract/api/preparation';
import type { Queryable } from '../../db/connection';
import { createBookingRepository, type PreparationRow } from './repository';

/**
 * The preparation a booking's pages show (docs/rules/booking.md#preparation): each exam's parts
 * (exam.preparation_parts) with what the patient already did online for this booking: the
 * screening questions of the exam (a BOOKING_FORM answer for the exam or its modality, moved to
 * the booking when it was made) and a referral upload. An exam without parts keeps its text.
 */

const PartsSchema = PreparationPartSchema.array();

/** exam slug -> the preparation text for this booking. */
export async function bookingPreparation(q: Queryable, bookingKey: string): Promise<Map<string, string>> {
  const rows = await createBookingRepository(q).preparationRows(bookingKey);
  const notes = new Map<string, string>();
  for (const row of rows) {
    notes.set(row.exam_slug, preparedText(row));
  }
  return notes;
}

function preparedText(row: PreparationRow): string {
  // The seed validated the parts; a row that no longer parses falls back to the plain text.
  const parsed = PartsSchema.safeParse(row.preparation_parts);
  const parts: PreparationPart[] = parsed.success ? parsed.data : [];
  if (parts.length === 0) return row.preparation_notes;
  return preparationText(parts, { screeningDone: row.screening_done, referralUploaded: row.referral_uploaded });
}
