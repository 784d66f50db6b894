import type { Model } from 'survey-core';
import type { QuestionnaireResponseItem, QuestionnaireResponseItemAnswer } from '@medplum/fhirtypes';

/**
 * A SurveyJS answer (question name → value) as QuestionnaireResponse items, read through the
 * questionnaire's own survey-core model so each item carries its question's title and each chosen
 * answer its listed text: a choice is a Coding (the value as code, the choice's text as display),
 * a yes/no a boolean, a number an integer or decimal, a date a date, a drawn signature an
 * attachment, and an answer with parts (a matrix, several text boxes) an item per part.
 */

interface Choice {
  value: unknown;
  text?: string;
}
interface SurveyQuestion {
  name: string;
  title: string;
  value: unknown;
  comment?: string;
  inputType?: string;
  choices?: Choice[];
  visibleRateValues?: Choice[];
  isEmpty(): boolean;
  getType(): string;
}

const CHOICE_TYPES = new Set(['radiogroup', 'dropdown', 'checkbox', 'tagbox', 'imagepicker', 'ranking']);
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATA_URL = /^data:([a-z]+\/[a-z0-9.+-]+);base64,([A-Za-z0-9+/=]+)$/;
/** A FHIR code: no leading or trailing space, no double spaces, no line breaks. */
const CODE = /^[^\s]+( [^\s]+)*$/;
const MAX_DEPTH = 3;

function primitiveAnswer(value: unknown, inputType: string | undefined): QuestionnaireResponseItemAnswer | null {
  if (typeof value === 'boolean') return { valueBoolean: value };
  if (typeof value === 'number' && Number.isFinite(value))
    return Number.isInteger(value) ? { valueInteger: value } : { valueDecimal: value };
  if (typeof value !== 'string' || value === '') return null;
  if ((inputType === 'date' || inputType === undefined) && DATE.test(value)) return { valueDate: value };
  const image = DATA_URL.exec(value);
  if (image !== null) return { valueAttachment: { contentType: image[1] ?? 'application/octet-stream', data: image[2] ?? '' } };
  return { valueString: value };
}

function choiceAnswer(question: SurveyQuestion, value: unknown): QuestionnaireResponseItemAnswer | null {
  const listed = [...(question.choices ?? []), ...(question.visibleRateValues ?? [])].find((choice) => choice.value === value);
  const code = String(value);
  if (!CODE.test(code)) return primitiveAnswer(value, undefined);
  const display = listed?.text ?? (value === 'other' ? 'Other' : value === 'none' ? 'None' : undefined);
  return { valueCoding: { code, ...(display === undefined || display === '' ? {} : { display }) } };
}

/** A value with parts (an object) as nested items, one per part. */
function partItems(linkId: string, value: Record<string, unknown>, depth: number): QuestionnaireResponseItem[] {
  return Object.entries(value).flatMap(([part, partValue]) => {
    const item = itemOf(`${linkId}.${part}`, part, partValue, undefined, depth + 1);
    return item === null ? [] : [item];
  });
}

function itemOf(
  linkId: string,
  text: string,
  value: unknown,
  inputType: string | undefined,
  depth: number,
): QuestionnaireResponseItem | null {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    if (depth >= MAX_DEPTH) return { linkId, text, answer: [{ valueString: JSON.stringify(value) }] };
    const item = partItems(linkId, value as Record<string, unknown>, depth);
    return item.length === 0 ? null : { linkId, text, item };
  }
  const answer = (Array.isArray(value) ? value : [value]).flatMap((one) => {
    if (one !== null && typeof one === 'object') return [{ valueString: JSON.stringify(one) }];
    const read = primitiveAnswer(one, inputType);
    return read === null ? [] : [read];
  });
  return answer.length === 0 ? null : { linkId, text, answer };
}

function questionItem(question: SurveyQuestion): QuestionnaireResponseItem | null {
  const text = question.title || question.name;
  if (!CHOICE_TYPES.has(question.getType()) && question.getType() !== 'rating')
    return itemOf(question.name, text, question.value, question.inputType, 0);
  const answer = (Array.isArray(question.value) ? question.value : [question.value]).flatMap((value) => {
    const read = choiceAnswer(question, value);
    return read === null ? [] : [read];
  });
  return answer.length === 0 ? null : { linkId: question.name, text, answer };
}

/** The items of an answer, in the questionnaire's order; values of no question of it are left out. */
export function surveyItems(model: Model, result: Record<string, unknown>): QuestionnaireResponseItem[] {
  model.data = result;
  const questions = model.getAllQuestions(false) as unknown as SurveyQuestion[];
  return questions.flatMap((question) => {
    if (question.isEmpty()) return [];
    const item = questionItem(question);
    const comment = typeof question.comment === 'string' && question.comment.trim() !== '' ? question.comment : null;
    const commentItem: QuestionnaireResponseItem[] =
      comment === null
        ? []
        : [{ linkId: `${question.name}-Comment`, text: `${question.title || question.name}: comment`, answer: [{ valueString: comment }] }];
    return [...(item === null ? [] : [item]), ...commentItem];
  });
}
