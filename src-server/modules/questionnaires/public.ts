import type { Queryable } from '../../db/connection';
import { listResponse, planItems } from './plan';
import { createQuestionnairesRepository } from './repository';

/** What other modules may use of questionnaires: the booking hook, outcomes of a temporary key, the document to bring. */
export {
  applyAnswersToChange,
  applyQuestionnaireAnswers,
  auditScreeningRefusal,
  outcomesForKey,
  UNKNOWN_QUESTIONNAIRE_KEY,
} from './booking-hook';

/** What the demo seed checks a questionnaire with before storing it: the survey model and its conditions. */
export { autocompleteSources, loadModel } from './answer-validation';
/** Referrer feedback checks its answers the same way (docs/rules/referrers.md#report-quality-feedback). */
export { checkAnswer } from './answer-validation';
export { isValidCondition } from './outcomes';
/** The questionnaires due on a booking now: the summary, the confirmation and the mails link them. */
export { dueQuestionnaires } from './due';

/** The document a booking's questionnaire answers asked the patient to bring, or null. */
export function requiredDocument(
  q: Queryable,
  owner: { type: 'APPOINTMENT' | 'BOOKING_REQUEST'; key: string },
): Promise<{ title: string; description: string } | null> {
  return createQuestionnairesRepository(q).requiredDocument(owner);
}

/**
 * The kiosk's feedbackQuestionnaireAnswered (docs/rules/kiosk.md#identity-check-and-kiosk-check-in):
 * true when every FEEDBACK questionnaire that applies to the appointment booking is answered (also
 * when none applies).
 */
export async function feedbackAnswered(q: Queryable, bookingKey: string): Promise<boolean> {
  const repository = createQuestionnairesRepository(q);
  const exams = await repository.ownerExams('APPOINTMENT', bookingKey);
  if (exams.length === 0) return true;
  const items = planItems(await repository.byTypes(['FEEDBACK']), exams);
  return listResponse(bookingKey, items, await repository.answers('APPOINTMENT', bookingKey)).allAnswered;
}
