import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Model, type QuestionRadiogroupModel } from 'survey-core';
import { describe, expect, it } from 'vitest';
import { isYesNoChoices, normaliseYesNo } from '../../../../src-web/features/questionnaires/yes-no-normaliser';

const LABELS = { yes: 'Yes', no: 'No' };
type Json = Record<string, unknown>;

function firstElement(json: Json): Json {
  return (json.elements as Json[])[0] as Json;
}

describe('normaliseYesNo', () => {
  it('turns a boolean question into a Yes-then-No radio group that answers true and false', () => {
    const json = normaliseYesNo({ elements: [{ type: 'boolean', name: 'hasImplants', title: 'Implants?', isRequired: true }] }, LABELS);
    expect(firstElement(json)).toEqual({
      type: 'radiogroup',
      name: 'hasImplants',
      title: 'Implants?',
      isRequired: true,
      choices: [
        { value: true, text: 'Yes' },
        { value: false, text: 'No' },
      ],
      colCount: 0,
    });
    const model = new Model(json);
    const question = model.getQuestionByName('hasImplants') as QuestionRadiogroupModel;
    question.value = false;
    // "No" is an answer (false is not empty): the required check passes and the data stays boolean.
    expect(model.validate()).toBe(true);
    expect(model.data).toEqual({ hasImplants: false });
    question.value = true;
    expect(model.data).toEqual({ hasImplants: true });
  });

  it("keeps a boolean's own labels and values (labelTrue, valueTrue, swapOrder dropped)", () => {
    const json = normaliseYesNo(
      {
        elements: [
          {
            type: 'boolean',
            name: 'consent',
            labelTrue: { default: 'I do', mk: 'Да' },
            labelFalse: 'I do not',
            valueTrue: 'agreed',
            valueFalse: 'refused',
            swapOrder: true,
          },
        ],
      },
      LABELS,
    );
    const element = firstElement(json);
    expect(element.choices).toEqual([
      { value: 'agreed', text: { default: 'I do', mk: 'Да' } },
      { value: 'refused', text: 'I do not' },
    ]);
    expect(element).not.toHaveProperty('swapOrder');
    expect(element).not.toHaveProperty('valueTrue');
  });

  it('puts Yes first and No second in a yes/no radio group, other choices after them in their order', () => {
    const json = normaliseYesNo(
      {
        elements: [
          {
            type: 'radiogroup',
            name: 'pregnant',
            choices: [
              { value: 'unsure', text: 'Possibly' },
              { value: 'no', text: 'No' },
              { value: 'not-applicable', text: 'Not applicable' },
              { value: 'yes', text: 'Yes' },
            ],
            choicesOrder: 'random',
          },
        ],
      },
      LABELS,
    );
    const element = firstElement(json);
    expect((element.choices as Json[]).map((choice) => choice.value)).toEqual(['yes', 'no', 'unsure', 'not-applicable']);
    expect(element.choicesOrder).toBe('none');
  });

  it('leaves other radio groups, single-checkbox booleans and the input itself alone', () => {
    const input: Json = {
      elements: [
        { type: 'radiogroup', name: 'mobility', choices: ['none', 'some', 'wheelchair'] },
        { type: 'boolean', name: 'agree', renderAs: 'checkbox' },
        { type: 'text', name: 'weight' },
      ],
    };
    const copy = structuredClone(input);
    const json = normaliseYesNo(input, LABELS);
    expect(json).toEqual(copy);
    expect(input).toEqual(copy);
  });

  it('reaches questions inside pages, panels and dynamic panels', () => {
    const json = normaliseYesNo(
      {
        pages: [
          {
            name: 'one',
            elements: [
              { type: 'panel', name: 'devices', elements: [{ type: 'boolean', name: 'a' }] },
              { type: 'paneldynamic', name: 'people', templateElements: [{ type: 'radiogroup', name: 'b', choices: ['No', 'Yes'] }] },
            ],
          },
        ],
      },
      LABELS,
    );
    const page = (json.pages as Json[])[0] as Json;
    const [panel, dynamic] = page.elements as Json[];
    expect(((panel as Json).elements as Json[])[0]).toMatchObject({ type: 'radiogroup', name: 'a' });
    expect(((dynamic as Json).templateElements as Json[])[0]).toMatchObject({ choices: ['Yes', 'No'] });
  });

  it('recognises yes/no choices by value, whatever their texts', () => {
    expect(isYesNoChoices(['Yes', 'No'])).toBe(true);
    expect(isYesNoChoices([{ value: true }, { value: false }])).toBe(true);
    expect(isYesNoChoices([{ value: 'yes' }, { value: 'unsure' }])).toBe(false);
    expect(isYesNoChoices(undefined)).toBe(false);
  });

  it('leaves every demo questionnaire with one yes/no control, Yes then No', () => {
    const demo = JSON.parse(readFileSync(join(process.cwd(), 'resources', 'demo-provider', 'questionnaires.json'), 'utf8')) as {
      questionnaires: { slug: string; json: Json }[];
    };
    let yesNo = 0;
    for (const { slug, json } of demo.questionnaires) {
      const model = new Model(normaliseYesNo(json, LABELS));
      expect(
        model.getAllQuestions().filter((question) => question.getType() === 'boolean'),
        slug,
      ).toEqual([]);
      for (const question of model.getAllQuestions()) {
        if (question.getType() !== 'radiogroup') continue;
        const values = (question as QuestionRadiogroupModel).choices.map((choice) => choice.value as unknown);
        if (!isYesNoChoices(values)) continue;
        yesNo += 1;
        expect(['yes', 'true'], `${slug}: ${question.name}`).toContain(String(values[0]).toLowerCase());
        expect(['no', 'false'], `${slug}: ${question.name}`).toContain(String(values[1]).toLowerCase());
      }
    }
    // MRI (5, with the implant's card), CT (3), X-ray (1), mammogram symptoms (1), before your visit (1), protocol (1).
    expect(yesNo).toBe(12);
  });
});
