import { deleteTemporaryAttachments } from '../attachments/public';
import { createAuditLogRepository } from '../../db/audit-log';
import type { Queryable } from '../../db/connection';

/** SQL only (docs/server.md#module-shape): questionnaires, answers, temporary keys. */

export interface QuestionnaireRow extends Record<string, unknown> {
  id: string;
  slug: string;
  type: string;
  title: string;
  json: Record<string, unknown>;
  modal_size: string;
  association: string;
  outcomes: unknown;
  css: Record<string, unknown>;
  show_close: boolean;
  show_closing_confirmation: boolean;
  show_previous_button_on_last_page_enabled: boolean;
  position: number;
  modality_ids: string[];
  exam_slugs: string[];
}

export interface ExamInfoRow extends Record<string, unknown> {
  id: string;
  slug: string;
  name: string;
  modality_id: string;
}

export interface AnswerRow extends Record<string, unknown> {
  questionnaire_id: string;
  scope: string;
  exam_id: string | null;
  modality_id: string | null;
  result: Record<string, unknown>;
  saved_at: string;
}

export type OwnerType = 'TEMPORARY' | 'APPOINTMENT' | 'BOOKING_REQUEST';

const QUESTIONNAIRE_SELECT = `
  select q.id::text as id, q.slug, q.type, q.title, q.json, q.modal_size, q.association, q.outcomes, q.css,
         q.show_close, q.show_closing_confirmation, q.show_previous_button_on_last_page_enabled, q.position,
         coalesce((select array_agg(qm.modality_id::text order by qm.modality_id) from questionnaire_modality qm where qm.questionnaire_id = q.id), '{}') as modality_ids,
         coalesce((select array_agg(e.slug order by e.slug) from questionnaire_exam qe join exam e on e.id = qe.exam_id where qe.questionnaire_id = q.id), '{}') as exam_slugs
    from questionnaire q`;

export function createQuestionnairesRepository(db: Queryable) {
  const auditLog = createAuditLogRepository(db);
  return {
    async byTypes(types: readonly string[], tx: Queryable = db): Promise<QuestionnaireRow[]> {
      return tx.query<QuestionnaireRow>(`${QUESTIONNAIRE_SELECT} where q.active and q.type = any($1::text[]) order by q.position, q.slug`, [
        types,
      ]);
    },

    async byId(id: string, tx: Queryable = db): Promise<QuestionnaireRow | null> {
      const rows = await tx.query<QuestionnaireRow>(`${QUESTIONNAIRE_SELECT} where q.active and q.id = $1::uuid`, [id]);
      return rows[0] ?? null;
    },

    async examsBySlugs(slugs: readonly string[], tx: Queryable = db): Promise<ExamInfoRow[]> {
      return tx.query<ExamInfoRow>(
        `select id::text as id, slug, name, modality_id::text as modality_id from exam where slug = any($1::text[])`,
        [slugs],
      );
    },

    async examsByIds(ids: readonly string[], tx: Queryable = db): Promise<ExamInfoRow[]> {
      return tx.query<ExamInfoRow>(
        `select id::text as id, slug, name, modality_id::text as modality_id from exam where id = any($1::uuid[])`,
        [ids],
      );
    },

    /** Exam ids of an appointment booking's current rows or a booking request's rows. */
    async ownerExams(owner: 'APPOINTMENT' | 'BOOKING_REQUEST', bookingKey: string, tx: Queryable = db): Promise<ExamInfoRow[]> {
      const table = owner === 'APPOINTMENT' ? 'appointment' : 'booking_request';
      const rows = await tx.query<ExamInfoRow>(
        `select distinct e.id::text as id, e.slug, e.name, e.modality_id::text as modality_id
         from ${table} t join exam e on e.id = t.exam_id
        where t.booking_key = $1
          and t.status not in ('RESCHEDULED', 'CHANGED')
        order by e.slug`,
        [bookingKey],
      );
      return rows;
    },

    async insertKey(bookingKey: string, now: Date, expiresAt: Date, tx: Queryable = db): Promise<void> {
      await tx.query(`insert into questionnaire_booking_key (booking_key, created_at, expires_at) values ($1, $2, $3)`, [
        bookingKey,
        now.toISOString(),
        expiresAt.toISOString(),
      ]);
    },

    /** Issues a key a provider's system names itself, unless it was issued before (then it stays as it is). */
    async insertKeyIfNew(bookingKey: string, now: Date, expiresAt: Date, tx: Queryable = db): Promise<void> {
      await tx.query(
        `insert into questionnaire_booking_key (booking_key, created_at, expires_at) values ($1, $2, $3) on conflict (booking_key) do nothing`,
        [bookingKey, now.toISOString(), expiresAt.toISOString()],
      );
    },

    /** A usable temporary key: issued, not expired, not retired. Locks it when asked. */
    async liveKey(bookingKey: string, now: Date, lock = false, tx: Queryable = db): Promise<boolean> {
      const rows = await tx.query(
        `select 1 from questionnaire_booking_key where booking_key = $1 and retired_at is null and expires_at > $2${lock ? ' for update' : ''}`,
        [bookingKey, now.toISOString()],
      );
      return rows.length > 0;
    },

    /** Deletes up to `limit` keys expired before `now` with their temporary answers; answers the number of keys. */
    async deleteExpiredKeys(now: Date, limit: number, tx: Queryable = db): Promise<number> {
      const keys = await tx.query<{ booking_key: string }>(
        `delete from questionnaire_booking_key
        where booking_key in (select booking_key from questionnaire_booking_key where expires_at <= $1 order by expires_at limit $2)
        returning booking_key`,
        [now.toISOString(), limit],
      );
      if (keys.length > 0) {
        await tx.query(`delete from questionnaire_answer where owner_type = 'TEMPORARY' and owner_key = any($1::text[])`, [
          keys.map((key) => key.booking_key),
        ]);
        // Their documents' rows too; the files become orphans the attachments sweeper removes.
        await deleteTemporaryAttachments(
          tx,
          keys.map((key) => key.booking_key),
        );
      }
      return keys.length;
    },

    async retireKey(bookingKey: string, now: Date, tx: Queryable = db): Promise<void> {
      await tx.query(`update questionnaire_booking_key set retired_at = $2 where booking_key = $1`, [bookingKey, now.toISOString()]);
    },

    async answers(owner: OwnerType, ownerKey: string, tx: Queryable = db): Promise<AnswerRow[]> {
      return tx.query<AnswerRow>(
        `select a.questionnaire_id::text as questionnaire_id, a.scope, a.exam_id::text as exam_id, a.modality_id::text as modality_id,
              a.result, a.saved_at::text as saved_at
         from questionnaire_answer a join questionnaire q on q.id = a.questionnaire_id
        where a.owner_type = $1 and a.owner_key = $2
        order by q.position, q.slug, a.scope`,
        [owner, ownerKey],
      );
    },

    async upsertAnswer(
      answer: {
        questionnaireId: string;
        owner: OwnerType;
        ownerKey: string;
        scope: string;
        examId: string | null;
        modalityId: string | null;
        result: Record<string, unknown>;
        now: Date;
      },
      tx: Queryable = db,
    ): Promise<void> {
      await tx.query(
        `insert into questionnaire_answer (questionnaire_id, owner_type, owner_key, scope, exam_id, modality_id, result, saved_at)
       values ($1::uuid, $2, $3, $4, $5::uuid, $6::uuid, $7::jsonb, $8)
       on conflict (questionnaire_id, owner_type, owner_key, scope)
       do update set result = excluded.result, saved_at = excluded.saved_at, exam_id = excluded.exam_id, modality_id = excluded.modality_id`,
        [
          answer.questionnaireId,
          answer.owner,
          answer.ownerKey,
          answer.scope,
          answer.examId,
          answer.modalityId,
          JSON.stringify(answer.result),
          answer.now.toISOString(),
        ],
      );
    },

    /** Moves every answer of one owner to another; answers the number moved. */
    async moveAnswers(from: { owner: OwnerType; key: string }, to: { owner: OwnerType; key: string }, tx: Queryable = db): Promise<number> {
      const rows = await tx.query(
        `update questionnaire_answer set owner_type = $3, owner_key = $4 where owner_type = $1 and owner_key = $2 returning id`,
        [from.owner, from.key, to.owner, to.key],
      );
      return rows.length;
    },

    async requiredBeforeBooking(tx: Queryable = db): Promise<boolean> {
      const rows = await tx.query<{ required: boolean }>(
        'select required_before_booking as required from questionnaire_settings where id = 1',
      );
      return rows[0]?.required === true;
    },

    async lookupList(list: string, tx: Queryable = db): Promise<string[]> {
      const rows = await tx.query<{ value: string }>(`select value from questionnaire_lookup where list = $1 order by position, value`, [
        list,
      ]);
      return rows.map((row) => row.value);
    },

    /** Document types by code. */
    async documentTypes(tx: Queryable = db): Promise<Map<string, { id: string; title: string; description: string }>> {
      const rows = await tx.query<{ id: string; code: string; title: string; description: string }>(
        `select id::text as id, code, title, description from document_type`,
      );
      return new Map(rows.map((row) => [row.code, { id: row.id, title: row.title, description: row.description }]));
    },

    async bookingKeyOfAppointment(appointmentId: string, tx: Queryable = db): Promise<string | null> {
      const rows = await tx.query<{ booking_key: string }>('select booking_key from appointment where id = $1::uuid', [appointmentId]);
      return rows[0]?.booking_key ?? null;
    },

    /** Records what the outcomes decided for a booking (nothing when they decided nothing). */
    /** Records what the outcomes decided; a change of exams replaces the document and insurance type it decided before. */
    async saveBookingOutcome(
      owner: { type: 'APPOINTMENT' | 'BOOKING_REQUEST'; key: string },
      outcome: { documentTypeId: string | null; insuranceType: string | null; validationCode: string | null },
      tx: Queryable = db,
    ): Promise<void> {
      if (outcome.documentTypeId === null && outcome.insuranceType === null && outcome.validationCode === null) {
        await tx.query(`delete from booking_outcome where owner_type = $1 and owner_key = $2`, [owner.type, owner.key]);
        return;
      }
      await tx.query(
        `insert into booking_outcome (owner_type, owner_key, document_type_id, insurance_type, validation_code)
       values ($1, $2, $3::uuid, $4, $5)
       on conflict (owner_type, owner_key) do update
          set document_type_id = excluded.document_type_id, insurance_type = excluded.insurance_type,
              validation_code = excluded.validation_code`,
        [owner.type, owner.key, outcome.documentTypeId, outcome.insuranceType, outcome.validationCode],
      );
    },

    /** The validation code a booking was made with, or null. */
    async validationCode(owner: { type: 'APPOINTMENT' | 'BOOKING_REQUEST'; key: string }, tx: Queryable = db): Promise<string | null> {
      const rows = await tx.query<{ code: string | null }>(
        `select validation_code as code from booking_outcome where owner_type = $1 and owner_key = $2`,
        [owner.type, owner.key],
      );
      return rows[0]?.code ?? null;
    },

    /** Deletes a booking's answers that the temporary key answers again (they are about to replace them). */
    async deleteAnswersSupersededBy(owner: { type: OwnerType; key: string }, temporaryKey: string, tx: Queryable = db): Promise<number> {
      const rows = await tx.query(
        `delete from questionnaire_answer kept using questionnaire_answer fresh
          where kept.owner_type = $1 and kept.owner_key = $2
            and fresh.owner_type = 'TEMPORARY' and fresh.owner_key = $3
            and fresh.questionnaire_id = kept.questionnaire_id and fresh.scope = kept.scope
         returning kept.id`,
        [owner.type, owner.key, temporaryKey],
      );
      return rows.length;
    },

    /** The document a booking's questionnaire answers asked the patient to bring, or null. */
    async requiredDocument(
      owner: { type: 'APPOINTMENT' | 'BOOKING_REQUEST'; key: string },
      tx: Queryable = db,
    ): Promise<{ title: string; description: string } | null> {
      const rows = await tx.query<{ title: string; description: string }>(
        `select d.title, d.description from booking_outcome o join document_type d on d.id = o.document_type_id
        where o.owner_type = $1 and o.owner_key = $2`,
        [owner.type, owner.key],
      );
      return rows[0] ?? null;
    },

    async walkInExams(tx: Queryable = db): Promise<{ name: string; modality_id: string; prep_time: number; minutes_prior: number }[]> {
      return tx.query(`select name, modality_id::text as modality_id, prep_time, minutes_prior from walk_in_exam order by position, name`);
    },

    async audit(
      entry: { action: string; subjectType: string; subjectId: string; details: Record<string, unknown>; now: Date },
      tx: Queryable = db,
    ): Promise<void> {
      await auditLog.record({ actor: 'patient', ...entry }, tx);
    },
  };
}

export type QuestionnairesRepository = ReturnType<typeof createQuestionnairesRepository>;
