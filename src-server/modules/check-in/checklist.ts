import type { ChecklistItem, CheckInChecklist } from '@contract/api/check-in-checklist';
import type { Queryable } from '../../db/connection';
import { isoTimestamp } from '../../db/sql';
import type { Clock } from '../../platform/clock';
import { notFound } from '../../platform/errors';
import { requiredDocument } from '../questionnaires/public';
import { createCheckInRepository } from './repository';
import { CHECK_IN_STATUSES } from './rules';

/**
 * What is still to do before the scan (docs/rules/check-in.md#checklist), from what the server
 * knows of the booking: consent forms not signed, a referral the exam needs and nobody uploaded,
 * a document the questionnaire answers asked for, and each coming exam's preparation with the
 * time fasting starts. Nothing here changes data; the same answer before and after check-in.
 */

interface ComingExamRow extends Record<string, unknown> {
  starts_at: string;
  exam_name: string;
  preparation_notes: string;
  fasting_hours: number | null;
  referral_required: boolean;
}

const LIVE_STATUSES = [...CHECK_IN_STATUSES, 'CHECKED_IN'];

export function createChecklist(db: Queryable, clock: Clock) {
  const repository = createCheckInRepository(db);

  /** The booking's appointments not over yet, in time order. */
  async function comingExams(bookingKey: string, now: Date): Promise<ComingExamRow[]> {
    return db.query<ComingExamRow>(
      `select ${isoTimestamp('lower(a.during)', 'starts_at')}, e.name as exam_name, e.preparation_notes, e.fasting_hours,
              (e.referral_required or exists (
                 select 1 from exam_document_type edt join document_type d on d.id = edt.document_type_id
                 where edt.exam_id = e.id and d.code = 'REFERRAL')) as referral_required
         from appointment a join exam e on e.id = a.exam_id
        where a.booking_key = $1 and a.status = any($2::text[]) and upper(a.during) > $3::timestamptz
        order by lower(a.during), e.name`,
      [bookingKey, `{${LIVE_STATUSES.join(',')}}`, now.toISOString()],
    );
  }

  /** Active consent forms for the booking's modalities (and general ones) without this booking's signature. */
  async function unsignedConsentForms(bookingKey: string): Promise<number> {
    const rows = await db.query<{ count: number }>(
      `select count(*)::int as count
         from consent_form f
        where f.active
          and (f.modality_id is null or f.modality_id in (
                 select e.modality_id from appointment a join exam e on e.id = a.exam_id
                  where a.booking_key = $1 and a.status = any($2::text[])))
          and not exists (select 1 from consent_signature s where s.consent_form_id = f.id and s.booking_key = $1)`,
      [bookingKey, `{${LIVE_STATUSES.join(',')}}`],
    );
    return rows[0]?.count ?? 0;
  }

  return {
    /** 404 for an appointment of another booking (the caller's session is for `bookingKey`). */
    async of(bookingKey: string, appointmentId: string): Promise<CheckInChecklist> {
      const appointment = await repository.appointment(bookingKey, appointmentId);
      if (appointment === null) throw notFound('This appointment was not found.');
      const exams = await comingExams(bookingKey, clock.now());
      const items: ChecklistItem[] = [];

      const consentForms = await unsignedConsentForms(bookingKey);
      if (consentForms > 0) items.push({ kind: 'CONSENT_FORMS', count: consentForms });

      if (exams.some((exam) => exam.referral_required)) {
        const referral = await repository.referral(bookingKey);
        if (!referral.uploaded) items.push({ kind: 'REFERRAL', documentTypeId: referral.documentTypeId });
      }

      const document = await requiredDocument(db, { type: 'APPOINTMENT', key: bookingKey });
      if (document !== null) items.push({ kind: 'BRING_DOCUMENT', title: document.title, description: document.description });

      for (const exam of exams) {
        if (exam.preparation_notes.trim() === '' && exam.fasting_hours === null) continue;
        const fastFrom = exam.fasting_hours === null ? null : new Date(Date.parse(exam.starts_at) - exam.fasting_hours * 3_600_000);
        items.push({
          kind: 'PREPARATION',
          examName: exam.exam_name,
          startsAt: exam.starts_at,
          notes: exam.preparation_notes,
          fastingHours: exam.fasting_hours,
          nothingToEatFrom: fastFrom?.toISOString() ?? null,
        });
      }
      return { timeZone: appointment.clinic_time_zone, items };
    },
  };
}

export type Checklist = ReturnType<typeof createChecklist>;
