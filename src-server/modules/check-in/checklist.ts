import type { ChecklistItem, CheckInChecklist, StillMissingItem } from '@contract/api/check-in-checklist';
import type { Queryable } from '../../db/connection';
import type { Clock } from '../../platform/clock';
import { notFound } from '../../platform/errors';
import { unsignedConsentForms } from '../appointments/public';
import { bookingPreparation } from '../booking/public';
import { requiredDocument } from '../questionnaires/public';
import { createCheckInRepository, type ComingExamRow } from './repository';
import { CHECK_IN_STATUSES } from './rules';

/**
 * What is still to do before the scan (docs/rules/check-in.md#checklist), from what the server
 * knows of the booking: consent forms not signed, a referral the exam needs and nobody uploaded,
 * a document the questionnaire answers asked for, and each coming exam's preparation with the
 * time fasting starts. Nothing here changes data; the same answer before and after check-in.
 */

const LIVE_STATUSES = [...CHECK_IN_STATUSES, 'CHECKED_IN'];

export function createChecklist(db: Queryable, clock: Clock) {
  const repository = createCheckInRepository(db);

  return {
    /** 404 for an appointment of another booking (the caller's session is for `bookingKey`). */
    async of(bookingKey: string, appointmentId: string): Promise<CheckInChecklist> {
      const appointment = await repository.appointment(bookingKey, appointmentId);
      if (appointment === null) throw notFound('This appointment was not found.');
      const exams = await repository.comingExams(bookingKey, LIVE_STATUSES, clock.now());
      const items: ChecklistItem[] = await missingFor(db, bookingKey, exams);

      // The preparation as the booking's pages say it (what was done online is not asked again).
      const preparation = await bookingPreparation(db, bookingKey);
      for (const exam of exams) {
        const notes = preparation.get(exam.exam_slug) ?? exam.preparation_notes;
        if (notes.trim() === '' && exam.fasting_hours === null) continue;
        const fastFrom = exam.fasting_hours === null ? null : new Date(Date.parse(exam.starts_at) - exam.fasting_hours * 3_600_000);
        items.push({
          kind: 'PREPARATION',
          examName: exam.exam_name,
          startsAt: exam.starts_at,
          notes,
          fastingHours: exam.fasting_hours,
          nothingToEatFrom: fastFrom?.toISOString() ?? null,
        });
      }
      return { timeZone: appointment.clinic_time_zone, items };
    },
  };
}

export type Checklist = ReturnType<typeof createChecklist>;

/**
 * What the booking still lacks for its coming exams: unsigned consent forms, a referral an exam
 * needs and nobody uploaded, a document a questionnaire answer asked for (the checklist's first
 * items, and the day plan's missing documents).
 */
export async function stillMissing(db: Queryable, bookingKey: string, now: Date): Promise<StillMissingItem[]> {
  return missingFor(db, bookingKey, await createCheckInRepository(db).comingExams(bookingKey, LIVE_STATUSES, now));
}

async function missingFor(db: Queryable, bookingKey: string, exams: readonly ComingExamRow[]): Promise<StillMissingItem[]> {
  const items: StillMissingItem[] = [];
  const consentForms = await unsignedConsentForms(db, bookingKey);
  if (consentForms > 0) items.push({ kind: 'CONSENT_FORMS', count: consentForms });

  if (exams.some((exam) => exam.referral_required)) {
    const referral = await createCheckInRepository(db).referral(bookingKey);
    if (!referral.uploaded) items.push({ kind: 'REFERRAL', documentTypeId: referral.documentTypeId });
  }

  const document = await requiredDocument(db, { type: 'APPOINTMENT', key: bookingKey });
  if (document !== null) items.push({ kind: 'BRING_DOCUMENT', title: document.title, description: document.description });
  return items;
}
