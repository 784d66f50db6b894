import { PreparationPartSchema, preparationText, type PreparationPart } from '@contract/api/preparation';
import type { Queryable } from '../../db/connection';

/**
 * The preparation a booking's pages show (docs/rules/booking.md#preparation): each exam's parts
 * (exam.preparation_parts) with what the patient already did online for this booking: the
 * screening questions of the exam (a BOOKING_FORM answer for the exam or its modality, moved to
 * the booking when it was made) and a referral upload. An exam without parts keeps its text.
 */

type PreparationRow = {
  exam_slug: string;
  preparation_notes: string;
  preparation_parts: unknown;
  screening_done: boolean;
  referral_uploaded: boolean;
};

const PartsSchema = PreparationPartSchema.array();

/** exam slug -> the preparation text for this booking. */
export async function bookingPreparation(q: Queryable, bookingKey: string): Promise<Map<string, string>> {
  const rows = await q.query<PreparationRow>(
    `select distinct on (e.slug) e.slug as exam_slug, e.preparation_notes, e.preparation_parts,
            exists (select 1 from questionnaire_answer qa join questionnaire qn on qn.id = qa.questionnaire_id
                     where qa.owner_type = 'APPOINTMENT' and qa.owner_key = $1 and qn.type = 'BOOKING_FORM'
                       and (qa.exam_id = e.id or qa.modality_id = e.modality_id)) as screening_done,
            exists (select 1 from attachment t join document_type d on d.id = t.document_type_id
                     where t.owner_type = 'APPOINTMENT' and t.owner_key = $1 and d.code = 'REFERRAL') as referral_uploaded
       from appointment a join exam e on e.id = a.exam_id
      where a.booking_key = $1
      order by e.slug`,
    [bookingKey],
  );
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
