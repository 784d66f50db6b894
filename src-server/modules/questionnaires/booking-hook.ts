import { moveAttachments } from '../attachments/public';
import { BOOKING_TIME_TYPES, type OutcomeProcessingResult } from '@contract/api/questionnaires';
import { PATIENT_MESSAGES } from '@contract/api/booking';
import { createAuditLogRepository } from '../../db/audit-log';
import type { Queryable } from '../../db/connection';
import { appError, notFound, validationError, type AppError } from '../../platform/errors';
import { combineOutcomes, type EvaluatedAnswer } from './outcomes';
import { decidesBooking, planItems, toQuestionnaire, type PlannedItem } from './plan';
import { createQuestionnairesRepository, type AnswerRow, type ExamInfoRow, type QuestionnairesRepository } from './repository';

/**
 * What a booking asks of the questionnaires while it is written (the booking and appointments
 * modules call these through public.ts): docs/rules/questionnaires.md#booking-hook.
 */

export const UNKNOWN_QUESTIONNAIRE_KEY = 'This questionnaire session has expired. Please start the booking again.';
export const VALIDATION_CODE_REQUIRED = 'Your answers need a validation code: please enter it to book.';
export const VALIDATION_CODE_FOR_CHANGE =
  'Your answers need a validation code, which a change online cannot take: please call the clinic to change this booking.';
export const BOOKING_REQUEST_REQUIRED =
  'Your answers mean this exam needs a booking request: please send a request instead and we will call you.';

const answerKey = (questionnaireId: string, scope: string): string => `${questionnaireId}|${scope}`;

/** The booking-time questionnaires these exams ask for, with the exams. */
async function planFor(repository: QuestionnairesRepository, examSlugs: readonly string[], tx: Queryable) {
  const exams = await repository.examsBySlugs(examSlugs, tx);
  return { exams, items: planItems(await repository.byTypes(BOOKING_TIME_TYPES, tx), exams) };
}

/**
 * The questionnaires that must be answered before these exams are booked and have no answer:
 * every one that decides about the booking (BOOKING_DECIDING_OUTCOMES), and with the provider's
 * required_before_booking also every other BOOKING_FORM.
 */
function unansweredRequired(items: readonly PlannedItem[], answers: readonly AnswerRow[], requiredSetting: boolean): PlannedItem[] {
  const answered = new Set(answers.map((answer) => answerKey(answer.questionnaire_id, answer.scope)));
  return items.filter(
    (item) =>
      (decidesBooking(item.row) || (requiredSetting && item.row.type === 'BOOKING_FORM')) &&
      !answered.has(answerKey(item.row.id, item.scope)),
  );
}

/** 400 questionnaire_required, worded for a partner's developer as much as for a patient; details name each questionnaire. */
function questionnaireRequired(missing: readonly PlannedItem[], exams: readonly ExamInfoRow[]): AppError {
  const examName = (item: PlannedItem): string =>
    item.examSlugs.flatMap((slug) => exams.filter((exam) => exam.slug === slug).map((exam) => exam.name)).join(', ') || 'This booking';
  const describe = (item: PlannedItem): string =>
    `${examName(item)} needs its ${decidesBooking(item.row) ? 'safety ' : ''}questionnaire '${item.row.title}' answered first.`;
  const first = missing[0] as PlannedItem;
  return appError(
    'questionnaire_required',
    400,
    `${describe(first)} Answer it under a questionnaire key (POST /api/questionnaires/booking-keys, then ` +
      'POST /api/questionnaires/temporary-answers) and send that key as questionnaireKey.',
    missing.map((item) => ({
      in: 'body/questionnaireKey',
      message: describe(item),
      questionnaireId: item.row.id,
      questionnaireSlug: item.row.slug,
      examSlugs: item.examSlugs,
    })),
  );
}

/** Folds the outcomes of the answers given for the planned items (docs/rules/questionnaires.md#outcomes). */
async function evaluate(
  repository: QuestionnairesRepository,
  items: readonly PlannedItem[],
  answers: readonly AnswerRow[],
  tx: Queryable,
): Promise<OutcomeProcessingResult> {
  const byScope = new Map(answers.map((answer) => [answerKey(answer.questionnaire_id, answer.scope), answer]));
  const evaluated: EvaluatedAnswer[] = [];
  for (const item of items) {
    const answer = byScope.get(answerKey(item.row.id, item.scope));
    if (answer === undefined) continue;
    evaluated.push({
      outcomes: toQuestionnaire(item.row).outcomes,
      data: answer.result,
      examSlug: item.examSlug,
      modalityId: item.modalityId,
    });
  }
  const documentTypes = await repository.documentTypes(tx);
  const walkIns = await repository.walkInExams(tx);
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

/**
 * Evaluates the outcomes of the temporary answers under `questionnaireKey` for these exams (the
 * booking flow asks before it books). 404 when the key is unknown or expired.
 */
export async function outcomesForKey(
  q: Queryable,
  questionnaireKey: string,
  examSlugs: readonly string[],
  now: Date,
): Promise<OutcomeProcessingResult> {
  const repository = createQuestionnairesRepository(q);
  if (!(await repository.liveKey(questionnaireKey, now))) throw notFound(UNKNOWN_QUESTIONNAIRE_KEY);
  const { items } = await planFor(repository, examSlugs, q);
  return evaluate(repository, items, await repository.answers('TEMPORARY', questionnaireKey, q), q);
}

/** What a booking brings that an outcome may require. */
interface BookingFacts {
  kind: 'appointment' | 'booking_request' | 'change';
  hasMedicareNumber: boolean;
  validationCode: string | undefined;
}

/**
 * Refuses a booking whose answers deny it or ask for what it lacks (a booking request instead of
 * a time, a Medicare number, a validation code), never trusting the web app to have followed them.
 */
function assertAllowed(result: OutcomeProcessingResult, facts: BookingFacts): void {
  if (!result.success) throw appError('booking_denied', 409, result.message ?? 'This booking cannot be made online.');
  if (facts.kind === 'booking_request' && result.bookingRequestDenied) {
    throw appError('booking_denied', 409, result.message ?? 'This booking request cannot be made online.');
  }
  if (facts.kind !== 'booking_request' && result.createBookingRequest)
    throw appError('booking_denied', 409, result.message ?? BOOKING_REQUEST_REQUIRED);
  if (result.medicareNumberRequired && !facts.hasMedicareNumber)
    throw validationError('patient/medicareNumber', PATIENT_MESSAGES.medicareRequired);
  if (result.validationCodeRequired && facts.validationCode === undefined)
    throw validationError('validationCode', facts.kind === 'change' ? VALIDATION_CODE_FOR_CHANGE : VALIDATION_CODE_REQUIRED);
}

/** Moves the temporary answers and documents to the booking and retires the key (inside the booking's transaction). */
async function attachTemporaryAnswers(
  tx: Queryable,
  questionnaireKey: string,
  target: { owner: 'APPOINTMENT' | 'BOOKING_REQUEST'; bookingKey: string },
  now: Date,
): Promise<void> {
  const repository = createQuestionnairesRepository(tx);
  await repository.moveAnswers({ owner: 'TEMPORARY', key: questionnaireKey }, { owner: target.owner, key: target.bookingKey }, tx);
  // The documents uploaded while booking go with the answers.
  await moveAttachments(tx, { type: 'TEMPORARY', key: questionnaireKey }, { type: target.owner, key: target.bookingKey }, now);
  await repository.retireKey(questionnaireKey, now, tx);
}

async function assertLiveKey(repository: QuestionnairesRepository, questionnaireKey: string | undefined, now: Date, tx: Queryable) {
  if (questionnaireKey !== undefined && !(await repository.liveKey(questionnaireKey, now, true, tx)))
    throw validationError('questionnaireKey', UNKNOWN_QUESTIONNAIRE_KEY);
}

/**
 * The booking hook, called inside a new booking's (or booking request's) transaction after its
 * rows are written, so a refusal rolls it back. The answers must be this key's, for these exams:
 * - a questionnaire that decides about the booking and has no answer: 400 questionnaire_required
 *   (with required_before_booking, any unanswered BOOKING_FORM too);
 * - answers that deny it or ask for what it lacks: 409 booking_denied or 400 validation_failed.
 * Otherwise the answers and documents move to the booking, the key is retired and what the
 * outcomes decided (document to bring, insurance type, validation code) is recorded. `review` says
 * a REVIEW_BOOKING outcome fired: the caller holds the booking for a radiographer's review.
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
    /** A chat request (docs/rules/chat.md#the-server): missing screenings are asked by the booking team on the phone. */
    screeningByPhone?: boolean;
  },
): Promise<{ screeningsMissing: number; review: { reason: string | null } | null }> {
  const repository = createQuestionnairesRepository(tx);
  await assertLiveKey(repository, questionnaireKey, booking.now, tx);
  const { exams, items } = await planFor(repository, booking.examSlugs, tx);
  const answers = questionnaireKey === undefined ? [] : await repository.answers('TEMPORARY', questionnaireKey, tx);
  const missing = unansweredRequired(items, answers, await repository.requiredBeforeBooking(tx));
  if (missing.length > 0 && booking.screeningByPhone !== true) throw questionnaireRequired(missing, exams);
  let outcome: OutcomeProcessingResult | null = null;
  if (questionnaireKey !== undefined) {
    outcome = await evaluate(repository, items, answers, tx);
    assertAllowed(outcome, {
      kind: booking.owner === 'APPOINTMENT' ? 'appointment' : 'booking_request',
      hasMedicareNumber: booking.hasMedicareNumber,
      validationCode: booking.validationCode,
    });
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
  // A booking request is judged by the booking team anyway; only a booking with a time is held for review.
  const review = booking.owner === 'APPOINTMENT' && outcome?.reviewRequired === true ? { reason: outcome.message } : null;
  return { screeningsMissing: missing.length, review };
}

/**
 * The hook for a booking whose exams change (the CHANGED reschedule), inside its transaction: the
 * booking's own answers count, and a temporary key's answers (given for the new exams) replace
 * them scope by scope. The same refusals as a new booking; the Medicare number is asked at
 * check-in, so it is not required here. Then the key's answers and documents join the booking.
 */
export async function applyAnswersToChange(
  tx: Queryable,
  questionnaireKey: string | undefined,
  change: { bookingKey: string; examSlugs: readonly string[]; now: Date },
): Promise<void> {
  const repository = createQuestionnairesRepository(tx);
  await assertLiveKey(repository, questionnaireKey, change.now, tx);
  const owner = { type: 'APPOINTMENT' as const, key: change.bookingKey };
  const { exams, items } = await planFor(repository, change.examSlugs, tx);
  const merged = new Map<string, AnswerRow>();
  const fresh = questionnaireKey === undefined ? [] : await repository.answers('TEMPORARY', questionnaireKey, tx);
  for (const answer of [...(await repository.answers('APPOINTMENT', change.bookingKey, tx)), ...fresh])
    merged.set(answerKey(answer.questionnaire_id, answer.scope), answer);
  const answers = [...merged.values()];
  const missing = unansweredRequired(items, answers, await repository.requiredBeforeBooking(tx));
  if (missing.length > 0) throw questionnaireRequired(missing, exams);
  const outcome = await evaluate(repository, items, answers, tx);
  const validationCode = await repository.validationCode(owner, tx);
  assertAllowed(outcome, { kind: 'change', hasMedicareNumber: true, validationCode: validationCode ?? undefined });
  if (questionnaireKey !== undefined) {
    await repository.deleteAnswersSupersededBy(owner, questionnaireKey, tx);
    await attachTemporaryAnswers(tx, questionnaireKey, { owner: 'APPOINTMENT', bookingKey: change.bookingKey }, change.now);
  }
  await repository.saveBookingOutcome(
    owner,
    { documentTypeId: outcome.documentTypeId, insuranceType: outcome.insuranceTypeId, validationCode },
    tx,
  );
}

const SCREENING_REFUSALS: ReadonlySet<string> = new Set(['questionnaire_required', 'booking_denied']);

/**
 * Audits a booking the screening refused (called with the error after the booking's transaction
 * rolled back, so the row stays): who, which exams, why, and which questionnaires were missing.
 * Best effort: a failed write never changes the refusal. Other errors are ignored.
 */
export async function auditScreeningRefusal(
  db: Queryable,
  error: unknown,
  attempt: { actor: string; kind: 'appointment' | 'booking_request' | 'change'; examSlugs: readonly string[]; subjectId: string | null },
): Promise<void> {
  if (!(error instanceof Error) || !('code' in error) || !SCREENING_REFUSALS.has(String(error.code))) return;
  const details = (error as AppError).details;
  const questionnaires = Array.isArray(details)
    ? details.flatMap((item: unknown) =>
        typeof item === 'object' && item !== null && 'questionnaireSlug' in item ? [String(item.questionnaireSlug)] : [],
      )
    : [];
  try {
    await createAuditLogRepository(db).record({
      actor: attempt.actor,
      action: 'booking.screening_refused',
      subjectType: attempt.kind,
      subjectId: attempt.subjectId,
      details: { code: String(error.code), exams: attempt.examSlugs, ...(questionnaires.length > 0 ? { questionnaires } : {}) },
    });
  } catch {
    // The refusal stands without its audit row (the database is failing anyway).
  }
}
