/**
 * A stored SurveyJS answer worded for the reviewing radiographer: each answered question by its
 * title (else its name) and each value by its choice text, in the questionnaire's order. Questions
 * the JSON does not know (none, after answer validation) keep their names.
 */

type Element = { name?: unknown; title?: unknown; elements?: unknown; choices?: unknown; labelTrue?: unknown; labelFalse?: unknown };

/** A SurveyJS text: a string, or localised strings of which the default (else the first) is used. */
function textOf(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null) {
    const texts = value as Record<string, unknown>;
    const chosen = texts.default ?? texts.en ?? Object.values(texts)[0];
    return typeof chosen === 'string' ? chosen : null;
  }
  return null;
}

/** The questions of a survey's pages and panels, in order. */
function questionsOf(json: Record<string, unknown>): Element[] {
  const found: Element[] = [];
  const walk = (elements: unknown): void => {
    if (!Array.isArray(elements)) return;
    for (const element of elements as Element[]) {
      if (typeof element.name === 'string') found.push(element);
      walk(element.elements);
    }
  };
  walk(json.elements);
  if (Array.isArray(json.pages)) for (const page of json.pages as Element[]) walk(page.elements);
  return found;
}

function choiceText(question: Element, value: unknown): string {
  if (value === true) return textOf(question.labelTrue) ?? 'Yes';
  if (value === false) return textOf(question.labelFalse) ?? 'No';
  if (Array.isArray(question.choices)) {
    for (const choice of question.choices as unknown[]) {
      if (choice === value) return String(value);
      if (typeof choice === 'object' && choice !== null && (choice as { value?: unknown }).value === value)
        return textOf((choice as { text?: unknown }).text) ?? String(value);
    }
  }
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}

export function answerItems(json: Record<string, unknown>, result: Record<string, unknown>): Array<{ question: string; answer: string }> {
  const questions = questionsOf(json);
  const known = new Set(questions.map((question) => question.name));
  const ordered = [
    ...questions.filter((question) => (question.name as string) in result),
    ...Object.keys(result)
      .filter((name) => !known.has(name))
      .map((name): Element => ({ name })),
  ];
  return ordered.map((question) => {
    const value = result[question.name as string];
    const answer = Array.isArray(value) ? value.map((item) => choiceText(question, item)).join(', ') : choiceText(question, value);
    return { question: textOf(question.title) ?? String(question.name), answer };
  });
}
