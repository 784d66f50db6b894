import { observer } from 'mobx-react-lite';
import { createElement, useEffect, useState } from 'react';
import { RendererFactory, Serializer, type Question, type QuestionTextModel, type SurveyModel } from 'survey-core';
import { ReactQuestionFactory } from 'survey-react-ui';
import { AutocompleteController, type AutocompleteLookup } from './autocomplete-controller';

export type { AutocompleteLookup } from './autocomplete-controller';

/**
 * The autocomplete survey field (docs/rules/questionnaires.md#autocomplete): a SurveyJS text question with the custom property
 * `autocompleteSource` (`{ "type": "text", "name": "implantType", "autocompleteSource": "implants" }`)
 * renders as a combobox whose value must be one of the suggestions the lookup gave
 * (GET /api/questionnaires/autocomplete/{source}).
 */
let currentLookup: AutocompleteLookup = () => Promise.resolve([]);
let registered = false;

/** The lookup the autocomplete questions use (the open survey modal's). */
export function setAutocompleteLookup(lookup: AutocompleteLookup | null): void {
  currentLookup = lookup ?? (() => Promise.resolve([]));
}

/** Registers the property and its renderer with SurveyJS (once, before a model is built). */
export function registerAutocomplete(): void {
  if (registered) return;
  registered = true;
  if (!Serializer.findProperty('text', 'autocompleteSource')) Serializer.addProperty('text', { name: 'autocompleteSource', default: '' });
  RendererFactory.Instance.registerRenderer('text', 'autocomplete', 'pp-autocomplete');
  ReactQuestionFactory.Instance.registerQuestion('pp-autocomplete', (props: unknown) =>
    createElement(AutocompleteQuestion, props as AutocompleteQuestionProps),
  );
}

/** The text question's lookup source, '' for a plain text question. */
export function autocompleteSourceOf(question: Question): string {
  const source: unknown = question.getType() === 'text' ? question.getPropertyValue('autocompleteSource') : '';
  return typeof source === 'string' ? source : '';
}

/** Makes every text question with a source render as the autocomplete field. */
export function applyAutocompleteRenderers(model: SurveyModel): void {
  for (const question of model.getAllQuestions(false, false, true)) {
    if (autocompleteSourceOf(question)) question.renderAs = 'autocomplete';
  }
}

interface AutocompleteQuestionProps {
  question: QuestionTextModel;
  isDisplayMode: boolean;
}

const AutocompleteQuestion = observer(function AutocompleteQuestion({ question, isDisplayMode }: AutocompleteQuestionProps) {
  const [controller] = useState(
    () =>
      new AutocompleteController(
        (query, source) => currentLookup(query, source),
        (value) => {
          question.value = value === '' ? undefined : value;
        },
        typeof question.value === 'string' ? question.value : '',
        autocompleteSourceOf(question) || undefined,
      ),
  );
  useEffect(() => () => controller.dispose(), [controller]);
  const listId = `${question.inputId}_list`;
  const optionId = (index: number) => `${question.inputId}_option_${index}`;
  const expanded = controller.open && controller.suggestions.length > 0;

  return (
    <div className={`${question.getRootClass()} pp-autocomplete`}>
      <input
        id={question.inputId}
        className={question.getControlClass()}
        type="text"
        role="combobox"
        autoComplete="off"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-activedescendant={controller.active >= 0 ? optionId(controller.active) : undefined}
        aria-required={question.a11y_input_ariaRequired}
        aria-label={question.a11y_input_ariaLabel || undefined}
        aria-labelledby={question.a11y_input_ariaLabelledBy || undefined}
        aria-describedby={question.a11y_input_ariaDescribedBy || undefined}
        aria-invalid={question.a11y_input_ariaInvalid}
        disabled={isDisplayMode || question.isReadOnly}
        placeholder={question.renderedPlaceholder}
        value={controller.text}
        onChange={(event) => controller.input(event.target.value)}
        onBlur={() => controller.blur()}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown') {
            event.preventDefault();
            controller.move(1);
          } else if (event.key === 'ArrowUp') {
            event.preventDefault();
            controller.move(-1);
          } else if (event.key === 'Enter') {
            if (controller.enter()) event.preventDefault();
          } else if (event.key === 'Escape' && controller.open) {
            // Closes the list only; the survey modal ignores Escape anyway.
            event.stopPropagation();
            controller.dismiss();
          }
        }}
      />
      <ul id={listId} role="listbox" className="pp-autocomplete-list" hidden={!expanded} aria-label={question.processedTitle}>
        {controller.suggestions.map((suggestion, index) => (
          <li
            key={suggestion}
            id={optionId(index)}
            role="option"
            aria-selected={index === controller.active}
            className={index === controller.active ? 'pp-autocomplete-option pp-autocomplete-active' : 'pp-autocomplete-option'}
            // mousedown, not click: the input's blur would clear the text before a click lands.
            onMouseDown={(event) => {
              event.preventDefault();
              controller.choose(suggestion);
            }}
          >
            {suggestion}
          </li>
        ))}
      </ul>
    </div>
  );
});
