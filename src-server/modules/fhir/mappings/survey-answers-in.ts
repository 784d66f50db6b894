import type { QuestionnaireResponseItem, QuestionnaireResponseItemAnswer } from '@medplum/fhirtypes';
import type { Model } from 'survey-core';

/**
 * A QuestionnaireResponse's items as a SurveyJS answer (question name → value), the reverse of
 * survey-answers.ts: a Coding's code is the choice's value (a number when the choice's value is
 * one), a multiple-choice question gets a list, nested items an object of parts, an attachment a
 * data URL. The result is then checked against the questionnaire exactly as the booking pages'
 * answers are (questionnaires/answer-validation.ts), so nothing here decides what is valid.
 */

interface Choice {
  value: unknown;
}
interface SurveyQuestion {
  getType(): string;
  choices?: Choice[];
  visibleRateValues?: Choice[];
}

const LIST_TYPES = new Set(['checkbox', 'tagbox', 'ranking', 'imagepicker']);

function answerValue(answer: QuestionnaireResponseItemAnswer, question: SurveyQuestion | null): unknown {
  if (answer.valueCoding !== undefined) {
    const code = answer.valueCoding.code ?? '';
    const listed = [...(question?.choices ?? []), ...(question?.visibleRateValues ?? [])].find((choice) => String(choice.value) === code);
    return listed === undefined ? code : listed.value;
  }
  if (answer.valueAttachment !== undefined)
    return `data:${answer.valueAttachment.contentType ?? 'application/octet-stream'};base64,${answer.valueAttachment.data ?? ''}`;
  return (
    answer.valueBoolean ??
    answer.valueInteger ??
    answer.valueDecimal ??
    answer.valueDate ??
    answer.valueDateTime ??
    answer.valueTime ??
    answer.valueString ??
    answer.valueUri ??
    null
  );
}

function itemValue(item: QuestionnaireResponseItem, question: SurveyQuestion | null): unknown {
  if (item.item !== undefined && item.item.length > 0) {
    const prefix = `${item.linkId}.`;
    return Object.fromEntries(
      item.item.map((part) => [part.linkId.startsWith(prefix) ? part.linkId.slice(prefix.length) : part.linkId, itemValue(part, null)]),
    );
  }
  const values = (item.answer ?? []).map((answer) => answerValue(answer, question));
  const list = question !== null && LIST_TYPES.has(question.getType());
  return list || values.length > 1 ? values : values[0];
}

export function surveyResultOf(model: Model, items: readonly QuestionnaireResponseItem[]): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const item of items) {
    const question = model.getQuestionByName(item.linkId) as unknown as SurveyQuestion | null;
    const value = itemValue(item, question);
    if (value !== undefined && value !== null) result[item.linkId] = value;
  }
  return result;
}
