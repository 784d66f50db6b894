import { emptyOutcomeResult, type Outcome, type OutcomeProcessingResult } from '@contract/api/questionnaires';
import { surveyCore } from './answer-validation';

/**
 * Outcome evaluation (docs/rules/questionnaires.md#outcomes): each outcome's condition is a SurveyJS expression run by
 * survey-core's ConditionRunner against a STORED answer. A condition that cannot be parsed
 * never fires (and is reported by the seed/tests, not to the patient).
 */

export function conditionHolds(condition: string, data: Record<string, unknown>): boolean {
  try {
    const runner = new (surveyCore().ConditionRunner)(condition);
    return runner.runValues(structuredClone(data)) === true;
  } catch {
    return false;
  }
}

/** Whether survey-core can parse the expression. */
export function isValidCondition(condition: string): boolean {
  const runner = new (surveyCore().ConditionRunner)(condition) as unknown as { canRun?: () => boolean };
  return typeof runner.canRun === 'function' ? runner.canRun() : true;
}

export function firedOutcomes(outcomes: readonly Outcome[], data: Record<string, unknown>): Outcome[] {
  return outcomes.filter((outcome) => conditionHolds(outcome.condition, data));
}

export interface OutcomeLookups {
  documentTypeId(code: string): string | null;
  walkInExam(name: string, modalityId: string | null): { name: string; prepTime: number; minutesPrior: number } | null;
}

export interface EvaluatedAnswer {
  outcomes: readonly Outcome[];
  data: Record<string, unknown>;
  examSlug: string | null;
  modalityId: string | null;
}

/** Folds the fired outcomes of every answer (in questionnaire order) into one result; the first deny message wins. */
export function combineOutcomes(answers: readonly EvaluatedAnswer[], lookups: OutcomeLookups): OutcomeProcessingResult {
  const result = emptyOutcomeResult();
  for (const answer of answers) {
    for (const outcome of firedOutcomes(answer.outcomes, answer.data)) {
      switch (outcome.type) {
        case 'DENY_BOOKING':
          if (result.success) result.message = outcome.result;
          result.success = false;
          break;
        case 'DENY_BOOKING_REQUEST':
          if (!result.bookingRequestDenied && result.success) result.message = outcome.result;
          result.bookingRequestDenied = true;
          break;
        case 'CREATE_BOOKING_REQUEST':
          result.createBookingRequest = true;
          result.message ??= outcome.result === '' ? null : outcome.result;
          break;
        case 'MEDICARE_NUMBER_REQUIRED':
          result.medicareNumberRequired = true;
          break;
        case 'VALIDATION_CODE_REQUIRED':
          result.validationCodeRequired = true;
          break;
        case 'SET_DOCUMENT_TYPE':
          result.documentTypeId = lookups.documentTypeId(outcome.result) ?? result.documentTypeId;
          break;
        case 'SET_INSURANCE_TYPE':
          result.insuranceTypeId = outcome.result;
          break;
        case 'REDIRECT':
          result.url ??= outcome.result;
          break;
        case 'WALK_IN_EXAM': {
          const walkIn = lookups.walkInExam(outcome.result, answer.modalityId);
          if (walkIn !== null && result.walkInExamName === null) {
            result.walkInExamName = walkIn.name;
            result.prepTime = walkIn.prepTime;
            result.minutesPrior = walkIn.minutesPrior;
            result.walkInEnabledGroup = answer.modalityId;
          }
          break;
        }
        case 'CHANGE_EXAM':
          if (answer.examSlug !== null && result.newExamSlug === null) {
            result.newExamSlug = outcome.result;
            result.examChange = { oldSlug: answer.examSlug, newSlug: outcome.result, oldestSlug: answer.examSlug };
          }
          break;
        case 'RESTRICT_QUESTIONNAIRE':
          result.restrictQuestionnaireId ??= outcome.result;
          break;
        case 'REVIEW_BOOKING':
          // A deny or booking-request message, when one fired too, says more than "we will check".
          if (result.success && !result.reviewRequired) result.message ??= outcome.result === '' ? null : outcome.result;
          result.reviewRequired = true;
          break;
      }
    }
  }
  return result;
}
