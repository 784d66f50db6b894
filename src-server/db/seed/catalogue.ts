import { NOTHING_DONE, preparationText } from '@contract/api/preparation';
import type { Queryable } from '../connection';
import type { DemoProvider } from './demo-provider';

/** The demo provider's clinics and exams, as seed.ts inserts them. */

/** A clinic as the seed keeps it for the appointments after it: its id, zone and hours. */
export interface SeededClinic {
  id: string;
  timeZone: string;
  openingHours: readonly { weekday: number; opens: string; closes: string }[];
  closedDates: readonly string[];
}

/** The one row an insert returns. */
export async function one<T extends Record<string, unknown>>(tx: Queryable, sql: string, params: readonly unknown[]): Promise<T> {
  const rows = await tx.query<T>(sql, params);
  const row = rows[0];
  if (row === undefined) throw new Error(`seed: expected one row from: ${sql.slice(0, 60)}`);
  return row;
}

/** An id the seed made earlier, by its code (loadDemoProvider checked every reference; a miss is a bug in the seed itself). */
export function lookup(map: Map<string, string>, key: string): string {
  const value = map.get(key);
  if (value === undefined) throw new Error(`seed: unresolved reference '${key}'`);
  return value;
}

/** The clinics with their opening hours, closed dates, and resources with their breaks. */
export async function insertClinics(
  tx: Queryable,
  data: DemoProvider,
  regionIds: Map<string, string>,
  modalityIds: Map<string, string>,
): Promise<{ clinicIds: Map<string, SeededClinic>; resourceIds: Map<string, string> }> {
  const clinicIds = new Map<string, SeededClinic>();
  const resourceIds = new Map<string, string>();
  for (const [position, clinic] of data.clinics.entries()) {
    const row = await one<{ id: string }>(
      tx,
      `insert into clinic (slug, region_id, name, street, suburb, state, postcode, phone, email, latitude, longitude, time_zone, position,
                           arrival_minutes, parking)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) returning id::text as id`,
      [
        clinic.slug,
        lookup(regionIds, clinic.regionSlug),
        clinic.name,
        clinic.address.street,
        clinic.address.suburb,
        clinic.address.state,
        clinic.address.postcode,
        clinic.phone,
        clinic.email,
        clinic.latitude,
        clinic.longitude,
        clinic.timeZone,
        position,
        clinic.arrivalMinutes,
        clinic.parking,
      ],
    );
    clinicIds.set(clinic.slug, {
      id: row.id,
      timeZone: clinic.timeZone,
      openingHours: clinic.openingHours,
      closedDates: clinic.closedDates,
    });
    for (const hours of clinic.openingHours) {
      await tx.query('insert into clinic_opening_hours (clinic_id, weekday, opens, closes) values ($1, $2, $3::time, $4::time)', [
        row.id,
        hours.weekday,
        hours.opens,
        hours.closes,
      ]);
    }
    for (const closedOn of clinic.closedDates) {
      await tx.query('insert into clinic_closed_date (clinic_id, closed_on) values ($1, $2::date)', [row.id, closedOn]);
    }
    for (const resource of clinic.resources) {
      const resourceRow = await one<{ id: string }>(
        tx,
        'insert into resource (clinic_id, code, name, modality_id) values ($1, $2, $3, $4) returning id::text as id',
        [row.id, resource.code, resource.name, lookup(modalityIds, resource.modalityCode)],
      );
      resourceIds.set(`${clinic.slug}/${resource.code}`, resourceRow.id);
      for (const pause of resource.breaks) {
        await tx.query('insert into resource_break (resource_id, starts, ends) values ($1, $2::time, $3::time)', [
          resourceRow.id,
          pause.starts,
          pause.ends,
        ]);
      }
    }
  }
  return { clinicIds, resourceIds };
}

/** The exams with their body parts and the documents they ask for. */
export async function insertExams(
  tx: Queryable,
  data: DemoProvider,
  ids: { modalityIds: Map<string, string>; bodyPartIds: Map<string, string>; documentTypeIds: Map<string, string> },
): Promise<Map<string, { id: string; durationMinutes: number }>> {
  const { modalityIds, bodyPartIds, documentTypeIds } = ids;
  const examIds = new Map<string, { id: string; durationMinutes: number }>();
  for (const exam of data.exams.exams) {
    const row = await one<{ id: string }>(
      tx,
      `insert into exam (slug, exam_code, name, modality_id, duration_minutes, priority, preparation_notes, notes,
                         referral_required, enquiry_only, medicare_required, fasting_hours, search_terms, preparation_parts,
                         drink_amount, drink_from_minutes, drink_until_minutes, medication_stop, medication_stop_hours, arrival_minutes)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14::jsonb, $15, $16, $17, $18, $19, $20) returning id::text as id`,
      [
        exam.slug,
        exam.examCode,
        exam.name,
        lookup(modalityIds, exam.modalityCode),
        exam.durationMinutes,
        exam.priority,
        // The text before booking; the parts keep their conditions for the booking's pages.
        preparationText(exam.preparationNotes, NOTHING_DONE),
        exam.notes,
        exam.referralRequired,
        exam.enquiryOnly,
        exam.medicareRequired,
        exam.fastingHours ?? null,
        exam.searchTerms,
        JSON.stringify(typeof exam.preparationNotes === 'string' ? [] : exam.preparationNotes),
        // The day plan's timed steps (0044_day_plan.sql).
        exam.drink?.amount ?? null,
        exam.drink?.fromMinutes ?? null,
        exam.drink?.untilMinutes ?? null,
        exam.medicationStop?.medicine ?? null,
        exam.medicationStop?.hours ?? null,
        exam.arrivalMinutes ?? null,
      ],
    );
    examIds.set(exam.slug, { id: row.id, durationMinutes: exam.durationMinutes });
    for (const slug of exam.bodyPartSlugs) {
      await tx.query('insert into exam_body_part (exam_id, body_part_id) values ($1, $2)', [row.id, lookup(bodyPartIds, slug)]);
    }
    for (const code of exam.documentTypeCodes) {
      await tx.query('insert into exam_document_type (exam_id, document_type_id) values ($1, $2)', [row.id, lookup(documentTypeIds, code)]);
    }
  }
  return examIds;
}
