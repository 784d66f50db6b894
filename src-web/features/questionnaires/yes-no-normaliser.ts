/**
 * One yes/no control in one order (docs/rules/questionnaires.md#yes-and-no): before SurveyJS sees
 * a questionnaire, every yes/no question becomes the same radio-button group, "Yes" first, then
 * "No", then any other choice ("I am not sure") in the provider's order.
 *
 * - A boolean question becomes a radiogroup whose choices carry the boolean's own values (true and
 *   false unless valueTrue/valueFalse say otherwise), so the answer the server validates and the
 *   outcome conditions compare (`{hasImplants} = true`) is unchanged.
 * - A radiogroup with a "yes" and a "no" choice keeps its values; only the order and the layout change.
 * - A boolean shown as a single checkbox (renderAs "checkbox": "I agree") is not a yes/no question
 *   and is left alone.
 *
 * Pure: the questionnaire's JSON is copied, never changed in place.
 */

type Json = Record<string, unknown>;
type Text = string | Record<string, string>;

export interface YesNoLabels {
  /** The text of the "Yes" choice of a boolean question without its own labelTrue. */
  yes: string;
  /** The text of the "No" choice of a boolean question without its own labelFalse. */
  no: string;
}

/** The class of a yes/no question's root in the page (survey-modal.tsx adds it; styles and tests find it). */
export const YES_NO_CLASS = 'pp-yes-no';

/** Boolean properties that have no meaning on a radiogroup. */
const BOOLEAN_ONLY = ['labelTrue', 'labelFalse', 'valueTrue', 'valueFalse', 'swapOrder', 'renderAs', 'type'];

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value of a choice: a plain value, or { value, text }. */
function choiceValue(choice: unknown): unknown {
  return isObject(choice) ? choice.value : choice;
}

function isYes(value: unknown): boolean {
  return value === true || (typeof value === 'string' && /^(yes|y|true)$/i.test(value.trim()));
}

function isNo(value: unknown): boolean {
  return value === false || (typeof value === 'string' && /^(no|n|false)$/i.test(value.trim()));
}

/** Whether a radiogroup's choices are yes/no (with or without further choices such as "unsure"). */
export function isYesNoChoices(choices: unknown): choices is unknown[] {
  if (!Array.isArray(choices)) return false;
  const values = choices.map(choiceValue);
  return values.filter(isYes).length === 1 && values.filter(isNo).length === 1;
}

function booleanAsRadiogroup(element: Json, labels: YesNoLabels): Json {
  const rest: Json = {};
  for (const [key, value] of Object.entries(element)) if (!BOOLEAN_ONLY.includes(key)) rest[key] = value;
  const yesValue = 'valueTrue' in element ? element.valueTrue : true;
  const noValue = 'valueFalse' in element ? element.valueFalse : false;
  return {
    type: 'radiogroup',
    ...rest,
    choices: [
      { value: yesValue, text: (element.labelTrue as Text | undefined) ?? labels.yes },
      { value: noValue, text: (element.labelFalse as Text | undefined) ?? labels.no },
    ],
    colCount: 0,
  };
}

function orderedYesNo(element: Json, choices: unknown[]): Json {
  const yes = choices.filter((choice) => isYes(choiceValue(choice)));
  const no = choices.filter((choice) => isNo(choiceValue(choice)));
  const others = choices.filter((choice) => !isYes(choiceValue(choice)) && !isNo(choiceValue(choice)));
  return { ...element, choices: [...yes, ...no, ...others], colCount: 0, choicesOrder: 'none' };
}

function normaliseElement(element: unknown, labels: YesNoLabels): unknown {
  if (!isObject(element)) return element;
  let next: Json = element;
  if (element.type === 'boolean' && element.renderAs !== 'checkbox') next = booleanAsRadiogroup(element, labels);
  else if (element.type === 'radiogroup' && isYesNoChoices(element.choices)) next = orderedYesNo(element, element.choices);
  // Panels (and dynamic panels' templates) hold questions of their own.
  if (Array.isArray(next.elements)) next = { ...next, elements: next.elements.map((child) => normaliseElement(child, labels)) };
  if (Array.isArray(next.templateElements)) {
    next = { ...next, templateElements: next.templateElements.map((child) => normaliseElement(child, labels)) };
  }
  return next;
}

/** The questionnaire's SurveyJS JSON with every yes/no question as one radio group in one order. */
export function normaliseYesNo(json: Json, labels: YesNoLabels): Json {
  const next: Json = { ...json };
  if (Array.isArray(json.elements)) next.elements = json.elements.map((element) => normaliseElement(element, labels));
  if (Array.isArray(json.pages)) {
    next.pages = json.pages.map((page) =>
      isObject(page) && Array.isArray(page.elements)
        ? { ...page, elements: page.elements.map((element) => normaliseElement(element, labels)) }
        : page,
    );
  }
  return next;
}
