import {
  APPOINTMENT_TYPES,
  BOOKING_REQUEST_TYPES,
  type AppointmentBookingResponse,
  BOOKING_TIME_TYPES,
  OutcomeSchema,
  PAIN_SCORE_TYPES,
  type AutocompleteResponse,
  type NewBookingKeyResponse,
  type OutcomeProcessingResult,
  type PendingQuestionnairesResponse,
  type PostBookingAnswerRequest,
  type PostBookingAnswerResponse,
  type Questionnaire,
  type QuestionnaireItem,
  type QuestionnaireListResponse,
  type QuestionnaireType,
  type ReKeyResponse,
  type SavedAnswerResponse,
  type TemporaryAnswerRequest,
} from '@contract/api/questionnaires';
import { PATIENT_MESSAGES } from '@contract/api/booking';
import { z } from 'zod';
import type { Database, Queryable } from '../../db/connection';
import type { Clock } from '../../platform/clock';
import { appError, badRequest, notFound, validationError, type AppError } from '../../platform/errors';
import { randomToken } from '../../platform/ids';
import { sanitizeConfiguredHtml } from '../../platform/html-sanitizer';
import { autocompleteSources, validateAnswer } from './answer-validation';
import { combineOutcomes, type EvaluatedAnswer } from './outcomes';
import { createQuestionnairesRepository, type AnswerRow, type ExamInfoRow, type OwnerType, type QuestionnaireRow } from './repository';

/** A temporary booking key takes answers for this long after it was issued. */
export const TEMPORARY_KEY_HOURS = 24;
const MAX_SUGGESTIONS = 20;
export const UNKNOWN_QUESTIONNAIRE_KEY = 'This questionnaire session has expired. Please start the booking again.';

const OutcomeListSchema = z.array(OutcomeSchema);

/** SurveyJS properties that are rendered as HTML (the html question, the completed and loading pages). */
const HTML_PROPERTIES = new Set(['html', 'completedHtml', 'completedBeforeHtml', 'loadingHtml']);

/**
 * The questionnaire JSON with every HTML property sanitised (security: HTML from configuration);
 * a localised value ({ default, mk, ... }) has each text sanitised. Everything else is unchanged.
 */
export function sanitizeSurveyJson(value: unknown, key = ''): unknown {
  if (HTML_PROPERTIES.has(key)) {
    if (typeof value === 'string') return sanitizeConfiguredHtml(value);
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      return Object.fromEntries(
        Object.entries(value).map(([locale, text]) => [locale, typeof text === 'string' ? sanitizeConfiguredHtml(text) : text]),
      );
    }
    return value;
  }
  if (Array.isArray(value)) return value.map((item) => sanitizeSurveyJson(item));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, sanitizeSurveyJson(item, name)]));
  }
  return value;
}

export function toQuestionnaire(row: QuestionnaireRow): Questionnaire {
  const outcomes = OutcomeListSchema.safeParse(row.outcomes);
  return {
    id: row.id,
    slug: row.slug,
    type: row.type as QuestionnaireType,
    title: row.title,
    json: sanitizeSurveyJson(row.json) as Questionnaire['json'],
    modalSize: row.modal_size as Questionnaire['modalSize'],
    association: row.association as Questionnaire['association'],
    general: row.association === 'GENERAL',
    modalityIds: row.modality_ids,
    examSlugs: row.exam_slugs,
    outcomes: outcomes.success ? outcomes.data : [],
    css: row.css,
    showClose: row.show_close,
    showClosingConfirmation: row.show_closing_confirmation,
    showPreviousButtonOnLastPageEnabled: row.show_previous_button_on_last_page_enabled,
  };
}

interface PlannedItem {
  row: QuestionnaireRow;
  scope: string;
  examSlug: string | null;
  examSlugs: string[];
  modalityId: string | null;
  examId: string | null;
}

/** The questionnaires to answer for these exams: GENERAL once, MODALITY per modality, EXAM per exam. */
export function planItems(rows: readonly QuestionnaireRow[], exams: readonly ExamInfoRow[]): PlannedItem[] {
  const items: PlannedItem[] = [];
  for (const row of rows) {
    if (row.association === 'GENERAL') {
      items.push({ row, scope: 'general', examSlug: null, examSlugs: exams.map((exam) => exam.slug), modalityId: null, examId: null });
    } else if (row.association === 'MODALITY') {
      const modalities = [...new Set(exams.map((exam) => exam.modality_id))].filter((id) => row.modality_ids.includes(id));
      for (const modalityId of modalities) {
        const covered = exams.filter((exam) => exam.modality_id === modalityId);
        const first = covered[0];
        if (first === undefined) continue;
        items.push({
          row,
          scope: `modality:${modalityId}`,
          examSlug: first.slug,
          examSlugs: covered.map((exam) => exam.slug),
          modalityId,
          examId: first.id,
        });
      }
    } else {
      for (const exam of exams.filter((item) => row.exam_slugs.includes(item.slug))) {
        items.push({
          row,
          scope: `exam:${exam.id}`,
          examSlug: exam.slug,
          examSlugs: [exam.slug],
          modalityId: exam.modality_id,
          examId: exam.id,
        });
      }
    }
  }
  // GENERAL first, then in questionnaire order.
  return items.sort((a, b) => Number(b.row.association === 'GENERAL') - Number(a.row.association === 'GENERAL'));
}

function listResponse(bookingKey: string, items: readonly PlannedItem[], answers: readonly AnswerRow[]): QuestionnaireListResponse {
  const answered = new Set(answers.map((answer) => `${answer.questionnaire_id}|${answer.scope}`));
  const questionnaires: QuestionnaireItem[] = items.map((item) => ({
    questionnaire: toQuestionnaire(item.row),
    examSlug: item.examSlug,
    examSlugs: item.examSlugs,
    modalityId: item.modalityId,
    answered: answered.has(`${item.row.id}|${item.scope}`),
  }));
  return { bookingKey, questionnaires, allAnswered: questionnaires.every((item) => item.answered) };
}

export interface QuestionnairesServiceDeps {
  db: Database;
  clock: Clock;
  /** The appointments module's cancel (same rules as POST /api/appointments/{key}/cancel). */
  cancelAppointment(bookingKey: string): Promise<{ status: string }>;
}

/**
 * Evaluates the outcomes of the temporary answers under `questionnaireKey` for these exams
 * (called by the booking service before it writes). Throws 409 booking_denied with the
 * questionnaire's message when they deny it, 400 when the key is unknown or expired.
 */
export async function outcomesForKey(
  q: Queryable,
  questionnaireKey: string,
  examSlugs: readonly string[],
  now: Date,
): Promise<OutcomeProcessingResult> {
  const repository = createQuestionnairesRepository(q);
  if (!(await repository.liveKey(questionnaireKey, now))) throw notFound(UNKNOWN_QUESTIONNAIRE_KEY);
  const exams = await repository.examsBySlugs(examSlugs);
  const rows = await repository.byTypes(BOOKING_TIME_TYPES);
  const items = planItems(rows, exams);
  const answers = await repository.answers('TEMPORARY', questionnaireKey);
  const byScope = new Map(answers.map((answer) => [`${answer.questionnaire_id}|${answer.scope}`, answer]));
  const evaluated: EvaluatedAnswer[] = [];
  for (const item of items) {
    const answer = byScope.get(`${item.row.id}|${item.scope}`);
    if (answer === undefined) continue;
    evaluated.push({
      outcomes: toQuestionnaire(item.row).outcomes,
      data: answer.result,
      examSlug: item.examSlug,
      modalityId: item.modalityId,
    });
  }
  const documentTypes = await repository.documentTypes();
  const walkIns = await repository.walkInExams();
  const result = combineOutcomes(evaluated, {
    documentTypeId: (code) => documentTypes.get(code)?.id ?? null,
    walkInExam: (name, modalityId) => {
      const found = walkIns.find((walkIn) => walkIn.name === name && (modalityId === null || walkIn.modality_id === modalityId));
      return found === undefined ? null : { name: found.name, prepTime: found.prep_time, minutesPrior: found.minutes_prior };
    },
  });
  const documentType = [...documentTypes.values()].find((type) => type.id === result.documentTypeId);
  result.documentType = documentType === undefined ? null : { title: documentType.title, description: documentType.description };
  return result;
}

/** What a booking brings that an outcome may require. */
export interface BookingFacts {
  kind: 'appointment' | 'booking_request';
  hasMedicareNumber: boolean;
  validationCode: string | undefined;
}

export const VALIDATION_CODE_REQUIRED = 'Your answers need a validation code: please enter it to book.';
export const BOOKING_REQUEST_REQUIRED =
  'Your answers mean this exam needs a booking request: please send a request instead and we will call you.';

/**
 * The booking hook, inside the booking's transaction: refuses a booking (or booking
 * request) whose temporary answers deny it or ask for what it lacks (a booking request instead of
 * a time, a Medicare number, a validation code), never trusting the web app to have followed
 * them. Unknown or expired key: 400. Answers the outcomes to record with the booking.
 */
export async function assertBookingAllowed(
  q: Queryable,
  questionnaireKey: string,
  examSlugs: readonly string[],
  facts: BookingFacts,
  now: Date,
): Promise<OutcomeProcessingResult> {
  let result: OutcomeProcessingResult;
  try {
    result = await outcomesForKey(q, questionnaireKey, examSlugs, now);
  } catch (error) {
    if ((error as AppError).code === 'not_found') throw validationError('questionnaireKey', UNKNOWN_QUESTIONNAIRE_KEY);
    throw error;
  }
  if (!result.success) throw appError('booking_denied', 409, result.message ?? 'This booking cannot be made online.');
  if (facts.kind === 'booking_request' && result.bookingRequestDenied) {
    throw appError('booking_denied', 409, result.message ?? 'This booking request cannot be made online.');
  }
  if (facts.kind === 'appointment' && result.createBookingRequest)
    throw appError('booking_denied', 409, result.message ?? BOOKING_REQUEST_REQUIRED);
  if (result.medicareNumberRequired && !facts.hasMedicareNumber)
    throw validationError('patient/medicareNumber', PATIENT_MESSAGES.medicareRequired);
  if (result.validationCodeRequired && facts.validationCode === undefined)
    throw validationError('validationCode', VALIDATION_CODE_REQUIRED);
  return result;
}

/**
 * The booking hook, inside the booking's transaction AFTER it booked: the temporary
 * answers move to the appointment booking (or booking request) and the temporary key is retired.
 */
export async function attachTemporaryAnswers(
  q: Queryable,
  questionnaireKey: string,
  target: { owner: 'APPOINTMENT' | 'BOOKING_REQUEST'; bookingKey: string },
  now: Date,
): Promise<number> {
  const repository = createQuestionnairesRepository(q);
  const moved = await repository.moveAnswers(
    { owner: 'TEMPORARY', key: questionnaireKey },
    { owner: target.owner, key: target.bookingKey },
  );
  await repository.retireKey(questionnaireKey, now);
  return moved;
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
    const { issues, data } = validateAnswer(row.json, result, await lookups(row.json));
    const first = issues[0];
    if (first !== undefined) {
      const details = issues.map((issue) => ({
        in: `body/questionnaireResult${issue.question === '' ? '' : `/${issue.question}`}`,
        message: issue.message,
      }));
      throw badRequest(first.message, details, 'validation_failed');
    }
    return data;
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
      await repository.upsertAnswer(
        {
          questionnaireId: row.id,
          owner,
          ownerKey: bookingKey,
          scope: item.scope,
          examId: item.examId,
          modalityId: item.modalityId,
          result: data,
          now,
        },
        tx,
      );
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
    return {
      questionnaireId: row.id,
      questionnaireType: row.type as QuestionnaireType,
      examSlug: item.examSlug,
      savedAt: now.toISOString(),
      appointmentStatus,
    };
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
        await repository.upsertAnswer(
          {
            questionnaireId: row.id,
            owner: 'TEMPORARY',
            ownerKey: request.bookingKey,
            scope: item.scope,
            examId: item.examId,
            modalityId: item.modalityId,
            result: data,
            now,
          },
          tx,
        );
      });
      return {
        questionnaireId: row.id,
        questionnaireType: row.type as QuestionnaireType,
        examSlug: item.examSlug,
        savedAt: now.toISOString(),
      };
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
        await repository.retireKey(oldBookingKey, now, tx);
        return { bookingKey: newBookingKey, moved };
      });
    },

    async processOutcomes(bookingKey: string, examSlugs: readonly string[]): Promise<OutcomeProcessingResult> {
      return outcomesForKey(db, bookingKey, examSlugs, clock.now());
    },

    async appointmentBooking(appointmentSlug: string): Promise<AppointmentBookingResponse> {
      const bookingKey = await repository.bookingKeyOfAppointment(appointmentSlug);
      if (bookingKey === null) throw notFound('We could not find this appointment.');
      return { bookingKey };
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

/**
 * The one booking hook (docs/rules/questionnaires.md#booking-hook), called inside the booking's transaction after its rows are
 * written: refuses (rolling the booking back) when the temporary answers deny it or ask for what
 * it lacks, else moves them to the appointment booking or booking request, retires the key and
 * records what the outcomes decided (document to bring, insurance type, validation code).
 */
export async function applyQuestionnaireAnswers(
  tx: Queryable,
  questionnaireKey: string | undefined,
  booking: {
    examSlugs: readonly string[];
    owner: 'APPOINTMENT' | 'BOOKING_REQUEST';
    bookingKey: string;
    now: Date;
    hasMedicareNumber: boolean;
    validationCode: string | undefined;
  },
): Promise<void> {
  const repository = createQuestionnairesRepository(tx);
  if (await repository.requiredBeforeBooking(tx)) {
    const exams = await repository.examsBySlugs(booking.examSlugs, tx);
    const items = planItems(await repository.byTypes(['BOOKING_FORM'], tx), exams);
    const answers = questionnaireKey === undefined ? [] : await repository.answers('TEMPORARY', questionnaireKey, tx);
    const answered = new Set(answers.map((answer) => `${answer.questionnaire_id}|${answer.scope}`));
    const missing = items.find((item) => !answered.has(`${item.row.id}|${item.scope}`));
    if (missing !== undefined)
      throw validationError('questionnaireKey', `Please answer the questionnaire '${missing.row.title}' before booking.`);
  }
  let outcome: OutcomeProcessingResult | null = null;
  if (questionnaireKey !== undefined) {
    if (!(await repository.liveKey(questionnaireKey, booking.now, true, tx)))
      throw validationError('questionnaireKey', UNKNOWN_QUESTIONNAIRE_KEY);
    const facts: BookingFacts = {
      kind: booking.owner === 'APPOINTMENT' ? 'appointment' : 'booking_request',
      hasMedicareNumber: booking.hasMedicareNumber,
      validationCode: booking.validationCode,
    };
    outcome = await assertBookingAllowed(tx, questionnaireKey, booking.examSlugs, facts, booking.now);
    await attachTemporaryAnswers(tx, questionnaireKey, { owner: booking.owner, bookingKey: booking.bookingKey }, booking.now);
  }
  await repository.saveBookingOutcome(
    { type: booking.owner, key: booking.bookingKey },
    {
      documentTypeId: outcome?.documentTypeId ?? null,
      insuranceType: outcome?.insuranceTypeId ?? null,
      validationCode: booking.validationCode ?? null,
    },
    tx,
  );
}
