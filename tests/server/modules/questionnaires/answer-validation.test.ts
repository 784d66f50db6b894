import { describe, expect, it } from 'vitest';
import { validateAnswer } from '../../../../src-server/modules/questionnaires/answer-validation';

// Answers are checked against the SurveyJS definition with survey-core.

const SURVEY = {
  pages: [
    {
      elements: [
        { type: 'radiogroup', name: 'pacemaker', title: 'Pacemaker?', isRequired: true, choices: ['yes', 'no'] },
        { type: 'boolean', name: 'hasImplants', isRequired: true },
        { type: 'text', name: 'implantType', visibleIf: '{hasImplants} = true', isRequired: true, autocompleteSource: 'implants' },
        { type: 'text', name: 'weightKg', inputType: 'number', min: 2, max: 350 },
        { type: 'checkbox', name: 'allergies', choices: ['iodine', 'latex'], showNoneItem: true, showOtherItem: true },
        { type: 'rating', name: 'pain', rateMin: 0, rateMax: 10 },
        { type: 'text', name: 'since', inputType: 'date' },
      ],
    },
  ],
};
const LOOKUPS = new Map([['implants', new Set(['Hip replacement', 'Coronary stent'])]]);

describe('answer validation against the questionnaire', () => {
  it('accepts a complete answer and drops values of hidden questions', () => {
    const { issues, data } = validateAnswer(
      SURVEY,
      { pacemaker: 'no', hasImplants: false, weightKg: 80, allergies: ['none'], pain: 3, since: '2026-01-02' },
      LOOKUPS,
    );
    expect(issues).toEqual([]);
    expect(data).toEqual({ pacemaker: 'no', hasImplants: false, weightKg: 80, allergies: ['none'], pain: 3, since: '2026-01-02' });
  });

  it("keeps the text of an 'Other' choice under <name>-Comment, and only for a question that offers it", () => {
    const ok = validateAnswer(
      SURVEY,
      { pacemaker: 'no', hasImplants: false, allergies: ['other'], 'allergies-Comment': 'Penicillin' },
      LOOKUPS,
    );
    expect(ok.issues).toEqual([]);
    expect(ok.data['allergies-Comment']).toBe('Penicillin');
    const wrong = validateAnswer(SURVEY, { pacemaker: 'no', hasImplants: false, 'pacemaker-Comment': 'x' }, LOOKUPS);
    expect(wrong.issues.map((issue) => issue.question)).toEqual(['pacemaker-Comment']);
  });

  it('names each missing required question, including one made visible by another answer', () => {
    const { issues } = validateAnswer(SURVEY, { hasImplants: true }, LOOKUPS);
    expect(issues.map((issue) => issue.question)).toEqual(['pacemaker', 'implantType']);
    expect(issues[0]?.message).toBe("'Pacemaker?' needs an answer.");
  });

  it('refuses choices not offered, wrong types, out-of-range numbers, bad dates and unknown questions', () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ pacemaker: 'maybe', hasImplants: false }, 'pacemaker'],
      [{ pacemaker: 'no', hasImplants: 'yes' }, 'hasImplants'],
      [{ pacemaker: 'no', hasImplants: false, weightKg: 'heavy' }, 'weightKg'],
      [{ pacemaker: 'no', hasImplants: false, weightKg: 900 }, 'weightKg'],
      [{ pacemaker: 'no', hasImplants: false, allergies: ['peanut'] }, 'allergies'],
      [{ pacemaker: 'no', hasImplants: false, allergies: 'iodine' }, 'allergies'],
      [{ pacemaker: 'no', hasImplants: false, pain: 11 }, 'pain'],
      [{ pacemaker: 'no', hasImplants: false, since: '2026-02-30' }, 'since'],
      [{ pacemaker: 'no', hasImplants: true, implantType: 'Magic wand' }, 'implantType'],
      [{ pacemaker: 'no', hasImplants: false, shoeSize: 9 }, 'shoeSize'],
    ];
    for (const [answer, question] of cases) {
      const { issues } = validateAnswer(SURVEY, answer, LOOKUPS);
      expect(
        issues.map((issue) => issue.question),
        JSON.stringify(answer),
      ).toEqual([question]);
    }
  });
});
