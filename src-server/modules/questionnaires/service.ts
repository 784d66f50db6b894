import { moveAttachments } from '../attachments/public';
import {
  APPOINTMENT_TYPES,
  BOOKING_REQUEST_TYPES,
  BOOKING_TIME_TYPES,
  PAIN_SCORE_TYPES,
  type AutocompleteResponse,
  type NewBookingKeyResponse,
  type OutcomeProcessingResult,
  type PendingQuestionnairesResponse,
  type PostBookingAnswerRequest,
  type PostBookingAnswerResponse,
  type QuestionnaireListResponse,
  type QuestionnaireType,
  type ReKeyResponse,
  type SavedAnswerResponse,
  type TemporaryAnswerRequest,
} from '@contract/api/questionnaires';
import type { Database, Queryable } from '../../db/connection';
import type { Clock } from '../../platform/clock';
import { badRequest, notFound, validationError } from '../../platform/errors';
import { randomToken } from '../../platform/ids';
import { autocompleteSources, checkAnswer } from './answer-validation';
import { outcomesForKey, UNKNOWN_QUESTIONNAIRE_KEY } from './booking-hook';
import { listResponse, planItems, type PlannedItem } from './plan';
import { createQuestionnairesRepository, type ExamInfoRow, type OwnerType, type QuestionnaireRow } from './repository';

/** A temporary booking key takes answers for this long after it was issued. */
export const TEMPORARY_KEY_HOURS = 24;
const MAX_SUGGESTIONS = 20;

export interface QuestionnairesServiceDeps {
  db: Database;
  clock: Clock;
  /** The appointments module's cancel (same rules as POST /api/appointments/{key}/cancel). */
  cancelAppointment(bookingKey: string): Promise<{ status: string }>;
}

export function createQuestionnairesService(deps: QuestionnairesServiceDeps) {
  const { db, clock } = deps;
  const repository = createQuestionnairesRepository(db);

  async function lookups(json: Record<string, unknown>): Promise<Map<string, Set<string>>> {
    const result = new Map<string, Set<string>>();
    for (const list of new Set(autocompleteSources(json).values())) result.set(list, new Set(await repository.lookupList(list)));
    return result;
  }

  /** Validates; throws 400 validation_failed listing every problem. */
  async function checkedAnswer(row: QuestionnaireRow, result: Record<string, unknown>): Promise<Record<string, unknown>> {
    return checkAnswer(row.json, result, await lookups(row.json));
  }

  async function questionnaireOfTypes(id: string, types: readonly string[]): Promise<QuestionnaireRow> {
    const row = await repository.byId(id);
    if (row === null || !types.includes(row.type)) throw validationError('questionnaireId', 'This questionnaire cannot be answered here.');
    return row;
  }

  function itemFor(row: QuestionnaireRow, exams: readonly ExamInfoRow[], examSlug: string | undefined): PlannedItem {
    const items = planItems([row], exams);
    if (row.association === 'GENERAL') {
      const item = items[0];
      if (item === undefined) throw validationError('questionnaireId', 'This questionnaire does not apply to this booking.');
      return item;
    }
    if (examSlug === undefined) throw validationError('examSlug', 'Please say which exam this answer is for.');
    const item = items.find((candidate) => candidate.examSlugs.includes(examSlug));
    if (item === undefined) throw validationError('examSlug', 'This questionnaire does not apply to that exam.');
    return item;
  }

  type AnswerItem = Pick<PlannedItem, 'scope' | 'examId' | 'modalityId' | 'examSlug'>;

  /** Stores (or replaces) the owner's answer to `row` for one planned item. */
  function storeAnswer(
    answer: { row: QuestionnaireRow; owner: OwnerType; ownerKey: string; item: AnswerItem; result: Record<string, unknown>; now: Date },
    tx: Queryable,
  ): Promise<void> {
    const { row, item } = answer;
    return repository.upsertAnswer(
      {
        questionnaireId: row.id,
        owner: answer.owner,
        ownerKey: answer.ownerKey,
        scope: item.scope,
        examId: item.examId,
        modalityId: item.modalityId,
        result: answer.result,
        now: answer.now,
      },
      tx,
    );
  }

  function savedAnswer(row: QuestionnaireRow, item: AnswerItem, now: Date): SavedAnswerResponse {
    return {
      questionnaireId: row.id,
      questionnaireType: row.type as QuestionnaireType,
      examSlug: item.examSlug,
      savedAt: now.toISOString(),
    };
  }

  async function savePostBooking(
    owner: 'APPOINTMENT' | 'BOOKING_REQUEST',
    bookingKey: string,
    request: PostBookingAnswerRequest,
    types: readonly string[],
  ): Promise<PostBookingAnswerResponse> {
    const row = await questionnaireOfTypes(request.questionnaireId, types);
    const exams = await repository.ownerExams(owner, bookingKey);
    if (exams.length === 0) throw notFound('We could not find this booking.');
    const item = itemFor(row, exams, request.examSlug);
    const data = await checkedAnswer(row, request.questionnaireResult);
    let appointmentStatus: string | null = null;
    // Cancelling first: when the rules refuse it (409) nothing is stored.
    if (row.type === 'CANCEL_APPOINTMENT_PATIENT') appointmentStatus = (await deps.cancelAppointment(bookingKey)).status;
    const now = clock.now();
    await db.transaction(async (tx) => {
      await storeAnswer({ row, owner, ownerKey: bookingKey, item, result: data, now }, tx);
      await repository.audit(
        {
          action: 'questionnaire.answered',
          subjectType: owner.toLowerCase(),
          subjectId: row.slug,
          details: { type: row.type },
          now,
        },
        tx,
      );
    });
    return { ...savedAnswer(row, item, now), appointmentStatus };
  }

  async function pending(
    owner: 'APPOINTMENT' | 'BOOKING_REQUEST',
    bookingKey: string,
    types: readonly QuestionnaireType[] | undefined,
  ): Promise<PendingQuestionnairesResponse> {
    const allowed: readonly string[] = owner === 'APPOINTMENT' ? APPOINTMENT_TYPES : BOOKING_REQUEST_TYPES;
    const wanted = types ?? [owner === 'APPOINTMENT' ? 'REQUIRED_ON_CONFIRMATION' : 'PROTOCOL'];
    const wrong = wanted.find((type) => !allowed.includes(type));
    if (wrong !== undefined)
      throw badRequest(
        `${wrong} questionnaires are not answered here.`,
        [{ in: 'querystring/types', message: `${wrong} is not allowed here` }],
        'validation_failed',
      );
    const exams = await repository.ownerExams(owner, bookingKey);
    if (exams.length === 0) throw notFound('We could not find this booking.');
    const rows = await repository.byTypes(wanted);
    const answers = await repository.answers(owner, bookingKey);
    const list = listResponse(bookingKey, planItems(rows, exams), answers);
    const all = new Map(
      (await repository.byTypes([...APPOINTMENT_TYPES, ...BOOKING_REQUEST_TYPES, ...BOOKING_TIME_TYPES])).map((row) => [row.id, row]),
    );
    const examSlugs = new Map(
      (await repository.examsByIds(answers.flatMap((answer) => (answer.exam_id === null ? [] : [answer.exam_id])))).map((exam) => [
        exam.id,
        exam.slug,
      ]),
    );
    return {
      ...list,
      answers: answers.flatMap((answer) => {
        const row = all.get(answer.questionnaire_id);
        if (row === undefined) return [];
        return [
          {
            questionnaireId: row.id,
            questionnaireType: row.type as QuestionnaireType,
            title: row.title,
            examSlug: answer.exam_id === null ? null : (examSlugs.get(answer.exam_id) ?? null),
            questionnaireResult: answer.result,
            savedAt: new Date(answer.saved_at).toISOString(),
          },
        ];
      }),
    };
  }

  return {
    async newBookingKey(): Promise<NewBookingKeyResponse> {
      const now = clock.now();
      const bookingKey = randomToken();
      await db.transaction(async (tx) => {
        // Housekeeping on the way: expired keys and their unused answers go (a bounded batch).
        await repository.deleteExpiredKeys(now, 50, tx);
        await repository.insertKey(bookingKey, now, new Date(now.getTime() + TEMPORARY_KEY_HOURS * 3_600_000), tx);
      });
      return { bookingKey };
    },

    /**
     * A temporary key a provider's system names itself (derived from its Idempotency-Key, so a
     * retried booking answers under the same key), issued when new.
     */
    async ensureBookingKey(bookingKey: string): Promise<void> {
      const now = clock.now();
      await repository.insertKeyIfNew(bookingKey, now, new Date(now.getTime() + TEMPORARY_KEY_HOURS * 3_600_000));
    },

    async bookingQuestionnaires(bookingKey: string, examSlugs: readonly string[]): Promise<QuestionnaireListResponse> {
      if (!(await repository.liveKey(bookingKey, clock.now()))) throw notFound(UNKNOWN_QUESTIONNAIRE_KEY);
      const exams = await repository.examsBySlugs(examSlugs);
      const missing = examSlugs.find((slug) => !exams.some((exam) => exam.slug === slug));
      if (missing !== undefined)
        throw badRequest(
          `We could not find the exam '${missing}'.`,
          [{ in: 'querystring/exams', message: `unknown exam '${missing}'` }],
          'validation_failed',
        );
      const ordered = examSlugs.flatMap((slug) => exams.filter((exam) => exam.slug === slug));
      const rows = await repository.byTypes(BOOKING_TIME_TYPES);
      return listResponse(bookingKey, planItems(rows, ordered), await repository.answers('TEMPORARY', bookingKey));
    },

    async saveTemporaryAnswer(request: TemporaryAnswerRequest): Promise<SavedAnswerResponse> {
      const row = await questionnaireOfTypes(request.questionnaireId, BOOKING_TIME_TYPES);
      const exams = request.examSlug === undefined ? [] : await repository.examsBySlugs([request.examSlug]);
      if (request.examSlug !== undefined && exams.length === 0)
        throw validationError('examSlug', `We could not find the exam '${request.examSlug}'.`);
      const item =
        row.association === 'GENERAL'
          ? { scope: 'general', examSlug: null, examId: null, modalityId: null }
          : itemFor(row, exams, request.examSlug);
      const data = await checkedAnswer(row, request.questionnaireResult);
      const now = clock.now();
      await db.transaction(async (tx) => {
        if (!(await repository.liveKey(request.bookingKey, now, true, tx))) throw notFound(UNKNOWN_QUESTIONNAIRE_KEY);
        await storeAnswer({ row, owner: 'TEMPORARY', ownerKey: request.bookingKey, item, result: data, now }, tx);
      });
      return savedAnswer(row, item, now);
    },

    async reKey(oldBookingKey: string, newBookingKey: string): Promise<ReKeyResponse> {
      if (oldBookingKey === newBookingKey) throw validationError('newBookingKey', 'The new booking key must differ from the old one.');
      const now = clock.now();
      return db.transaction(async (tx) => {
        // Lock in a fixed order so two opposite re-keys cannot deadlock.
        for (const key of [oldBookingKey, newBookingKey].sort()) {
          if (!(await repository.liveKey(key, now, true, tx))) throw notFound(UNKNOWN_QUESTIONNAIRE_KEY);
        }
        if ((await repository.answers('TEMPORARY', newBookingKey, tx)).length > 0) {
          throw validationError('newBookingKey', 'The new booking key already has answers; ask for a fresh key.');
        }
        const moved = await repository.moveAnswers(
          { owner: 'TEMPORARY', key: oldBookingKey },
          { owner: 'TEMPORARY', key: newBookingKey },
          tx,
        );
        await moveAttachments(tx, { type: 'TEMPORARY', key: oldBookingKey }, { type: 'TEMPORARY', key: newBookingKey }, now);
        await repository.retireKey(oldBookingKey, now, tx);
        return { bookingKey: newBookingKey, moved };
      });
    },

    async processOutcomes(bookingKey: string, examSlugs: readonly string[]): Promise<OutcomeProcessingResult> {
      return outcomesForKey(db, bookingKey, examSlugs, clock.now());
    },

    /** The booking key an appointment belongs to; null when there is no such appointment. */
    async appointmentBookingKey(appointmentSlug: string): Promise<string | null> {
      return repository.bookingKeyOfAppointment(appointmentSlug);
    },

    async autocomplete(source: string, text: string): Promise<AutocompleteResponse> {
      const values = await repository.lookupList(source);
      if (values.length === 0) throw notFound('There is no such suggestion list.');
      const needle = text.toLocaleLowerCase('en-AU');
      const matching = values.filter((value) => value.toLocaleLowerCase('en-AU').includes(needle));
      const starts = matching.filter((value) => value.toLocaleLowerCase('en-AU').startsWith(needle));
      const rest = matching.filter((value) => !value.toLocaleLowerCase('en-AU').startsWith(needle));
      return { suggestions: [...starts, ...rest].slice(0, MAX_SUGGESTIONS) };
    },

    appointmentQuestionnaires: (bookingKey: string, types?: QuestionnaireType[]) => pending('APPOINTMENT', bookingKey, types),
    bookingRequestQuestionnaires: (bookingKey: string, types?: QuestionnaireType[]) => pending('BOOKING_REQUEST', bookingKey, types),

    saveAppointmentAnswer: (bookingKey: string, request: PostBookingAnswerRequest) =>
      savePostBooking(
        'APPOINTMENT',
        bookingKey,
        request,
        APPOINTMENT_TYPES.filter((type) => !(PAIN_SCORE_TYPES as readonly string[]).includes(type)),
      ),
    savePainScore: (bookingKey: string, request: PostBookingAnswerRequest) =>
      savePostBooking('APPOINTMENT', bookingKey, request, PAIN_SCORE_TYPES),
    saveBookingRequestAnswer: (bookingKey: string, request: PostBookingAnswerRequest) =>
      savePostBooking('BOOKING_REQUEST', bookingKey, request, BOOKING_REQUEST_TYPES),
  };
}

export type QuestionnairesService = ReturnType<typeof createQuestionnairesService>;
export type { OwnerType };
