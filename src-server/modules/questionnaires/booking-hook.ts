import { moveAttachments } from '../attachments/public';
import { BOOKING_TIME_TYPES, type OutcomeProcessingResult } from '@contract/api/questionnaires';
import { PATIENT_MESSAGES } from '@contract/api/booking';
import type { Queryable } from '../../db/connection';
import { appError, notFound, validationError, type AppError } from '../../platform/errors';
import { combineOutcomes, type EvaluatedAnswer } from './outcomes';
import { planItems, toQuestionnaire } from './plan';
import { createQuestionnairesRepository } from './repository';

/** What a booking asks of the questionnaires while it is written (the booking module calls these through public.ts). */

export const UNKNOWN_QUESTIONNAIRE_KEY = 'This questionnaire session has expired. Please start the booking again.';

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
  // The documents uploaded while booking go with the answers.
  await moveAttachments(q, { type: 'TEMPORARY', key: questionnaireKey }, { type: target.owner, key: target.bookingKey }, now);
  await repository.retireKey(questionnaireKey, now);
  return moved;
}

/**
 * The one booking hook, called inside the booking's transaction after its rows are
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
