import type * as SurveyCore from 'survey-core';
import type { Model } from 'survey-core';
import { MAX_RESULT_BYTES } from '@contract/api/questionnaires';
import { badRequest } from '../../platform/errors';
import { lazyRequire } from '../../platform/lazy-require';

/** survey-core loads with the first questionnaire checked, not at start. */
export const surveyCore = lazyRequire<typeof SurveyCore>('survey-core');

/**
 * Server-side check of a questionnaire answer against its SurveyJS definition (survey-core's
 * Model, headless): unknown question names, visible required questions, choice values, rating
 * ranges, input types, autocomplete values, and the survey's own validators. Answers to questions
 * hidden by the answers themselves are dropped (as SurveyJS does on completion).
 */

export interface AnswerIssue {
  question: string;
  message: string;
}

export interface ValidatedAnswer {
  issues: AnswerIssue[];
  /** The answer without values of hidden questions. */
  data: Record<string, unknown>;
}

type Json = Record<string, unknown>;

/** question name -> autocomplete list, from the raw JSON (a custom property SurveyJS does not know). */
export function autocompleteSources(json: Json): Map<string, string> {
  const sources = new Map<string, string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) {
      node.forEach(walk);
      return;
    }
    if (node === null || typeof node !== 'object') return;
    const item = node as Json;
    if (typeof item.name === 'string' && typeof item.autocompleteSource === 'string') sources.set(item.name, item.autocompleteSource);
    walk(item.pages);
    walk(item.elements);
    walk(item.templateElements);
  };
  walk(json);
  return sources;
}

/** Loads a definition; throws when survey-core finds no question in it. */
export function loadModel(json: Json): Model {
  const model = new (surveyCore().Model)(json);
  if (model.getAllQuestions(false).length === 0) throw new Error('questionnaire has no questions');
  return model;
}

interface ChoiceLike {
  value: unknown;
}
interface QuestionLike {
  name: string;
  title: string;
  isVisible: boolean;
  isRequired: boolean;
  isEmpty(): boolean;
  getType(): string;
  validate(fireCallback?: boolean): boolean;
  errors: { getText(): string }[];
  choices?: ChoiceLike[];
  showOtherItem?: boolean;
  showNoneItem?: boolean;
  showCommentArea?: boolean;
  visibleRateValues?: ChoiceLike[];
  inputType?: string;
  maxLength?: number;
  min?: unknown;
  max?: unknown;
}

const COMMENT_SUFFIX = '-Comment';
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

function isValidDate(value: string): boolean {
  if (!DATE.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

function choiceValues(question: QuestionLike): Set<unknown> {
  const values = new Set<unknown>((question.choices ?? []).map((choice) => choice.value));
  if (question.showOtherItem === true) values.add('other');
  if (question.showNoneItem === true) values.add('none');
  return values;
}

function label(question: QuestionLike): string {
  const title = typeof question.title === 'string' && question.title !== '' ? question.title : question.name;
  return `'${title}'`;
}

function checkValue(question: QuestionLike, value: unknown, lookup: ReadonlySet<string> | undefined): string | null {
  const type = question.getType();
  switch (type) {
    case 'radiogroup':
    case 'dropdown':
      if (typeof value !== 'string' && typeof value !== 'number') return `${label(question)} needs one of its listed answers.`;
      return choiceValues(question).has(value) ? null : `${label(question)}: '${String(value)}' is not one of the listed answers.`;
    case 'checkbox':
    case 'tagbox': {
      if (!Array.isArray(value)) return `${label(question)} needs a list of its listed answers.`;
      const allowed = choiceValues(question);
      const wrong = value.find((item) => !allowed.has(item));
      if (wrong !== undefined) return `${label(question)}: '${String(wrong)}' is not one of the listed answers.`;
      return new Set(value).size === value.length ? null : `${label(question)}: each answer can be chosen once.`;
    }
    case 'boolean':
      return typeof value === 'boolean' ? null : `${label(question)} needs yes or no.`;
    case 'rating': {
      const allowed = new Set((question.visibleRateValues ?? []).map((item) => item.value));
      return typeof value === 'number' && allowed.has(value) ? null : `${label(question)} needs one of the offered scores.`;
    }
    case 'comment':
      if (typeof value !== 'string') return `${label(question)} needs text.`;
      return question.maxLength !== undefined && question.maxLength > 0 && value.length > question.maxLength
        ? `${label(question)} is longer than ${question.maxLength} characters.`
        : null;
    case 'text': {
      const inputType = question.inputType ?? 'text';
      if (inputType === 'number' || inputType === 'range') {
        const number = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
        if (!Number.isFinite(number)) return `${label(question)} needs a number.`;
        const min = typeof question.min === 'number' ? question.min : Number(question.min ?? Number.NaN);
        const max = typeof question.max === 'number' ? question.max : Number(question.max ?? Number.NaN);
        if (Number.isFinite(min) && number < min) return `${label(question)} must be at least ${min}.`;
        if (Number.isFinite(max) && number > max) return `${label(question)} must be at most ${max}.`;
        return null;
      }
      if (typeof value !== 'string') return `${label(question)} needs text.`;
      if (inputType === 'date' && !isValidDate(value)) return `${label(question)} needs a date as YYYY-MM-DD.`;
      if (inputType === 'email' && !EMAIL.test(value)) return `${label(question)} needs an e-mail address.`;
      if (question.maxLength !== undefined && question.maxLength > 0 && value.length > question.maxLength) {
        return `${label(question)} is longer than ${question.maxLength} characters.`;
      }
      if (lookup !== undefined && !lookup.has(value)) return `${label(question)}: please choose one of the suggestions.`;
      if (value.length > 2000) return `${label(question)} is too long.`;
      return null;
    }
    default:
      return null;
  }
}

/**
 * @param lookups - autocomplete list name -> allowed values (every list the questionnaire names).
 */
export function validateAnswer(
  json: Json,
  result: Record<string, unknown>,
  lookups: ReadonlyMap<string, ReadonlySet<string>>,
): ValidatedAnswer {
  if (JSON.stringify(result).length > MAX_RESULT_BYTES) {
    return { issues: [{ question: '', message: 'The answer is too large.' }], data: {} };
  }
  const model = loadModel(json);
  const questions = model.getAllQuestions(false) as unknown as QuestionLike[];
  const byName = new Map(questions.map((question) => [question.name, question]));
  const issues: AnswerIssue[] = [];
  const comments: Record<string, string> = {};
  for (const key of Object.keys(result)) {
    if (byName.has(key)) continue;
    // SurveyJS keeps the text of an "Other" choice or a comment area under '<name>-Comment'.
    const base = key.endsWith(COMMENT_SUFFIX) ? byName.get(key.slice(0, -COMMENT_SUFFIX.length)) : undefined;
    const text = result[key];
    if (
      base !== undefined &&
      (base.showOtherItem === true || base.showCommentArea === true) &&
      typeof text === 'string' &&
      text.length <= 2000
    ) {
      if (base.isVisible !== false) comments[key] = text;
      continue;
    }
    issues.push({ question: key, message: `'${key}' is not a question of this questionnaire.` });
  }
  if (issues.length > 0) return { issues, data: {} };

  model.data = structuredClone(result);
  const sources = autocompleteSources(json);
  const data: Record<string, unknown> = {};
  for (const question of questions) {
    if (!question.isVisible) continue;
    const present = Object.hasOwn(result, question.name) && result[question.name] !== null && result[question.name] !== '';
    const value = result[question.name];
    if (!present || question.isEmpty()) {
      if (question.isRequired) issues.push({ question: question.name, message: `${label(question)} needs an answer.` });
      continue;
    }
    const source = sources.get(question.name);
    const problem = checkValue(question, value, source === undefined ? undefined : (lookups.get(source) ?? new Set()));
    if (problem !== null) {
      issues.push({ question: question.name, message: problem });
      continue;
    }
    if (!question.validate(false)) {
      const text = question.errors.map((error) => error.getText()).find((message) => message !== '');
      issues.push({ question: question.name, message: text ?? `${label(question)} is not a valid answer.` });
      continue;
    }
    data[question.name] = value;
  }
  for (const [key, text] of Object.entries(comments)) {
    if (Object.hasOwn(data, key.slice(0, -COMMENT_SUFFIX.length))) data[key] = text;
  }
  return { issues, data };
}

/**
 * validateAnswer, refusing with 400 validation_failed that lists every problem (each under
 * body/questionnaireResult/<question>); answers the data to store.
 */
export function checkAnswer(
  json: Json,
  result: Record<string, unknown>,
  lookups: ReadonlyMap<string, ReadonlySet<string>>,
): Record<string, unknown> {
  const { issues, data } = validateAnswer(json, result, lookups);
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
