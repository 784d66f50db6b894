import { describe, expect, it } from 'vitest';
import { completionOutcome } from '../../../../src-web/features/questionnaires/questionnaire-store';

describe('completionOutcome', () => {
  it('says saved when the answers lead to nothing else', () => {
    expect(completionOutcome('Before your visit', [])).toEqual({ title: 'Before your visit', kind: 'saved', message: null });
  });

  it('names a booking request, with the provider message', () => {
    expect(completionOutcome('Pregnancy check', [{ kind: 'createBookingRequest', message: 'We will call you' }])).toEqual({
      title: 'Pregnancy check',
      kind: 'bookingRequest',
      message: 'We will call you',
    });
  });

  it('lets a denial win over everything else', () => {
    const outcome = completionOutcome('MRI safety screening', [
      { kind: 'createBookingRequest', message: null },
      { kind: 'deny', message: 'Please call us', bookingRequest: false, maxAttemptsReached: false },
    ]);
    expect(outcome).toEqual({ title: 'MRI safety screening', kind: 'denied', message: 'Please call us' });
  });
});
