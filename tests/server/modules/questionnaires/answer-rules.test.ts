import { describe, expect, it } from 'vitest';
import type { Outcome } from '@contract/api/questionnaires';
import { validateAnswer } from '../../../../src-server/modules/questionnaires/answer-validation';
import { combineOutcomes, conditionHolds, isValidCondition } from '../../../../src-server/modules/questionnaires/outcomes';
import { sanitizeSurveyJson } from '../../../../src-server/modules/questionnaires/plan';

// Pure rules of questionnaire answers: answers checked against the SurveyJS definition with survey-core, and
// outcome conditions evaluated by survey-core's expression engine.

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

describe('outcome evaluation', () => {
  it('runs SurveyJS expressions on the answer', () => {
    expect(conditionHolds("{pacemaker} = 'yes'", { pacemaker: 'yes' })).toBe(true);
    expect(conditionHolds("{pacemaker} = 'yes'", { pacemaker: 'no' })).toBe(false);
    expect(conditionHolds("{allergies} contains 'iodine' or {egfr} < 30", { allergies: ['iodine'] })).toBe(true);
    expect(conditionHolds("{allergies} contains 'iodine' or {egfr} < 30", { egfr: 45 })).toBe(false);
    expect(isValidCondition("{a} = 'b'")).toBe(true);
  });

  const lookups = {
    documentTypeId: (code: string) => (code === 'REFERRAL' ? 'doc-1' : null),
    walkInExam: (name: string) => (name === 'Chest X-ray (walk-in)' ? { name, prepTime: 0, minutesPrior: 15 } : null),
  };
  const fire = (type: Outcome['type'], result: string) =>
    combineOutcomes(
      [{ outcomes: [{ type, condition: '{x} = 1', result }], data: { x: 1 }, examSlug: 'ct-brain', modalityId: 'm1' }],
      lookups,
    );

  it('folds every outcome type into the outcome processing result', () => {
    expect(fire('DENY_BOOKING', 'No.')).toMatchObject({ success: false, message: 'No.' });
    expect(fire('DENY_BOOKING_REQUEST', 'Not as a request.')).toMatchObject({
      success: true,
      bookingRequestDenied: true,
      message: 'Not as a request.',
    });
    expect(fire('CREATE_BOOKING_REQUEST', 'We will call you.')).toMatchObject({
      success: true,
      createBookingRequest: true,
      message: 'We will call you.',
    });
    expect(fire('MEDICARE_NUMBER_REQUIRED', '')).toMatchObject({ medicareNumberRequired: true });
    expect(fire('VALIDATION_CODE_REQUIRED', '')).toMatchObject({ validationCodeRequired: true });
    expect(fire('SET_DOCUMENT_TYPE', 'REFERRAL')).toMatchObject({ documentTypeId: 'doc-1' });
    expect(fire('SET_INSURANCE_TYPE', 'DVA')).toMatchObject({ insuranceTypeId: 'DVA' });
    expect(fire('REDIRECT', 'https://example.com/call-us')).toMatchObject({ url: 'https://example.com/call-us' });
    expect(fire('WALK_IN_EXAM', 'Chest X-ray (walk-in)')).toMatchObject({
      walkInExamName: 'Chest X-ray (walk-in)',
      prepTime: 0,
      minutesPrior: 15,
    });
    expect(fire('CHANGE_EXAM', 'ct-brain-contrast')).toMatchObject({
      newExamSlug: 'ct-brain-contrast',
      examChange: { oldSlug: 'ct-brain', newSlug: 'ct-brain-contrast', oldestSlug: 'ct-brain' },
    });
    expect(fire('RESTRICT_QUESTIONNAIRE', 'q-2')).toMatchObject({ restrictQuestionnaireId: 'q-2' });
  });

  it('does nothing when no condition holds, and the first deny message wins', () => {
    const none = combineOutcomes(
      [{ outcomes: [{ type: 'DENY_BOOKING', condition: '{x} = 2', result: 'No.' }], data: { x: 1 }, examSlug: null, modalityId: null }],
      lookups,
    );
    expect(none).toMatchObject({ success: true, message: null });
    const two = combineOutcomes(
      [
        { outcomes: [{ type: 'DENY_BOOKING', condition: '{x} = 1', result: 'First.' }], data: { x: 1 }, examSlug: null, modalityId: null },
        { outcomes: [{ type: 'DENY_BOOKING', condition: '{x} = 1', result: 'Second.' }], data: { x: 1 }, examSlug: null, modalityId: null },
      ],
      lookups,
    );
    expect(two).toMatchObject({ success: false, message: 'First.' });
  });
});

describe('HTML in a questionnaire definition', () => {
  it('is sanitised in every HTML property, localised or not, and nothing else changes', () => {
    const json = {
      completedHtml: { default: '<p>Thanks</p><script>alert(1)</script>', mk: '<p onclick="x()">Благодарам</p>' },
      loadingHtml: '<img src="x" onerror="alert(2)">',
      pages: [
        {
          elements: [
            {
              type: 'html',
              name: 'intro',
              html: '<p>Read <a href="https://example.com" target="_blank">this</a></p><iframe src="https://evil.example"></iframe>',
            },
            { type: 'text', name: 'note', title: '<b>kept as text</b>' },
          ],
        },
      ],
      completedHtmlOnCondition: [{ expression: "{note} = 'x'", html: '<p>X</p><script>alert(3)</script>' }],
    };
    const clean = sanitizeSurveyJson(json) as typeof json;
    expect(clean.completedHtml.default).toBe('<p>Thanks</p>');
    expect(clean.completedHtml.mk).toBe('<p>Благодарам</p>');
    expect(clean.loadingHtml).not.toMatch(/onerror/);
    const [intro, note] = clean.pages[0]?.elements ?? [];
    expect(intro?.html).toBe('<p>Read <a href="https://example.com" target="_blank" rel="noopener noreferrer">this</a></p>');
    expect(note).toEqual(json.pages[0]?.elements[1]);
    expect(clean.completedHtmlOnCondition[0]).toEqual({ expression: "{note} = 'x'", html: '<p>X</p>' });
  });
});
