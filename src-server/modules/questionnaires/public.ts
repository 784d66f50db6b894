import type { Queryable } from '../../db/connection';
import { createQuestionnairesRepository } from './repository';

/** What other modules may use of questionnaires: the booking hook, outcomes of a temporary key, the document to bring. */
export { applyQuestionnaireAnswers, outcomesForKey, UNKNOWN_QUESTIONNAIRE_KEY } from './booking-hook';

/** What the demo seed checks a questionnaire with before storing it: the survey model and its conditions. */
export { autocompleteSources, loadModel } from './answer-validation';
export { isValidCondition } from './outcomes';

/** The document a booking's questionnaire answers asked the patient to bring, or null. */
export function requiredDocument(
  q: Queryable,
  owner: { type: 'APPOINTMENT' | 'BOOKING_REQUEST'; key: string },
): Promise<{ title: string; description: string } | null> {
  return createQuestionnairesRepository(q).requiredDocument(owner);
}
