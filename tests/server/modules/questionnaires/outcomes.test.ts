import { describe, expect, it } from 'vitest';
import type { Outcome } from '@contract/api/questionnaires';
import { combineOutcomes, conditionHolds, isValidCondition } from '../../../../src-server/modules/questionnaires/outcomes';

// Outcome conditions are evaluated by survey-core's expression engine.

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
    expect(fire('REVIEW_BOOKING', 'A radiographer will check.')).toMatchObject({
      success: true,
      reviewRequired: true,
      message: 'A radiographer will check.',
    });
  });

  it('lets a denial speak over a review, in either order', () => {
    const review = { type: 'REVIEW_BOOKING' as const, condition: '{x} = 1', result: 'We will check.' };
    const deny = { type: 'DENY_BOOKING' as const, condition: '{x} = 1', result: 'No.' };
    for (const outcomes of [
      [review, deny],
      [deny, review],
    ])
      expect(combineOutcomes([{ outcomes, data: { x: 1 }, examSlug: null, modalityId: null }], lookups)).toMatchObject({
        success: false,
        message: 'No.',
      });
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
