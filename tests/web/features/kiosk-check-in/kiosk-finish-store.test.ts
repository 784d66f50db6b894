import { describe, expect, it } from 'vitest';
import type { ConsentForm } from '@contract/api/appointments';
import { ApiError } from '../../../../src-web/api/client';
import { KioskCheckInStore } from '../../../../src-web/features/kiosk-check-in/kiosk-check-in-store';
import { DUE_BEFORE_VISIT } from '../../../../src-web/features/kiosk-check-in/kiosk-finish-store';
import { consentForm, fakeDeps, found, questionnaireItem, type FakeOptions } from './kiosk-fakes';

// After identity: consent forms, then questionnaires due before the visit, then (giveFeedback) feedback, then confirm.

const PNG = 'data:image/png;base64,iVBORw0KGgo=';

async function signedInWith(options: FakeOptions = {}) {
  const { deps, calls } = fakeDeps({ otpRequired: false, ...options });
  const store = new KioskCheckInStore(deps);
  store.setLastName('Lobbyton');
  store.setDatePart('day', '12');
  store.setDatePart('month', '4');
  store.setDatePart('year', '1979');
  expect(await store.submitIdentity()).toBe(true);
  return { store, calls };
}

describe('KioskCheckInStore: finishing at the kiosk', () => {
  it('goes consent → questionnaires → confirm, signing each form with the drawn PNG and the booking’s patient name', async () => {
    const { store, calls } = await signedInWith({
      consentForms: [consentForm('f1'), { ...consentForm('f0'), signed: true, signedName: 'Ava Lobbyton' }, consentForm('f2')],
      questionnaires: [questionnaireItem('q1')],
    });
    expect(store.step).toBe('consent');
    // Only the unsigned ones, in order.
    expect(store.finish.consentForms.map((form) => form.id)).toEqual(['f1', 'f2']);
    expect(store.finish.signerName).toBe('Ava Lobbyton');

    await store.signConsent(PNG);
    expect(store.step).toBe('consent');
    expect(store.finish.currentForm?.id).toBe('f2');
    await store.signConsent(PNG);
    expect(calls.signed).toEqual([
      { id: 'f1', body: { signedName: 'Ava Lobbyton', agreed: true, signaturePng: PNG } },
      { id: 'f2', body: { signedName: 'Ava Lobbyton', agreed: true, signaturePng: PNG } },
    ]);

    expect(store.step).toBe('questionnaires');
    expect(calls.questionnaireTypes).toEqual([DUE_BEFORE_VISIT]);
    expect(store.finish.currentQuestionnaire?.questionnaire.id).toBe('q1');
    await store.questionnaireDone(true);
    expect(store.step).toBe('confirm');
    expect(store.finish.questionnairesLeft).toBe(0);
  });

  it('skips straight to confirm when every form is signed and nothing is due', async () => {
    const { store, calls } = await signedInWith({ consentForms: [{ ...consentForm('f1'), signed: true, signedName: 'Ava' }] });
    expect(store.step).toBe('confirm');
    expect(calls.signed).toEqual([]);
  });

  it('a failed signature shows the server’s message (or a default) and stays on the same form; a retry goes on', async () => {
    let refuse: Error | null = new ApiError(
      'http',
      400,
      'validation_failed',
      'The drawn signature is empty. Please sign with your finger.',
    );
    const { store } = await signedInWith({
      consentForms: [consentForm('f1')],
      sign: async (id, body) => {
        if (refuse) throw refuse;
        return { ...consentForm(id), signed: true, signedName: body.signedName, signedAt: new Date().toISOString() } satisfies ConsentForm;
      },
    });
    await store.signConsent(PNG);
    expect(store.step).toBe('consent');
    expect(store.finish.currentForm?.id).toBe('f1');
    expect(store.finish.signProblem).toEqual({ message: 'The drawn signature is empty. Please sign with your finger.' });
    expect(store.finish.signing).toBe(false);

    refuse = new ApiError('network', 0, 'service_unavailable', 'offline');
    await store.signConsent(PNG);
    expect(store.step).toBe('consent');
    expect(store.finish.signProblem).toEqual({ message: null });

    refuse = null;
    await store.signConsent(PNG);
    expect(store.finish.signProblem).toBeNull();
    expect(store.step).toBe('confirm');
  });

  it('never sends an empty drawing', async () => {
    const { store, calls } = await signedInWith({ consentForms: [consentForm('f1')] });
    await store.signConsent('');
    expect(calls.signed).toEqual([]);
    expect(store.step).toBe('consent');
  });

  it('leaves forms and questionnaires for the desk, counting them, then feedback (giveFeedback) and confirm', async () => {
    const { store, calls } = await signedInWith({
      giveFeedback: true,
      identity: async () => found({ feedbackQuestionnaireAnswered: false }),
      consentForms: [consentForm('f1'), consentForm('f2')],
      questionnaires: [questionnaireItem('q1'), questionnaireItem('q2', 'PAIN_SCORE_INITIAL')],
    });
    await store.skipConsent();
    expect(store.step).toBe('consent');
    await store.signConsent(PNG);
    expect(store.finish.consentsLeft).toBe(1);
    expect(calls.signed.map((entry) => entry.id)).toEqual(['f2']);

    expect(store.step).toBe('questionnaires');
    await store.questionnaireDone(false);
    expect(store.step).toBe('questionnaires');
    await store.questionnaireDone(true);
    expect(store.finish.questionnairesLeft).toBe(1);
    expect(store.step).toBe('feedback');
    await store.feedbackDone();
    expect(store.step).toBe('confirm');
  });

  it('calls from a step the store has left change nothing', async () => {
    const { store, calls } = await signedInWith({ consentForms: [consentForm('f1')] });
    await store.questionnaireDone(true);
    await store.feedbackDone();
    expect(store.step).toBe('consent');
    await store.signConsent(PNG);
    expect(store.step).toBe('confirm');
    await store.signConsent(PNG);
    await store.skipConsent();
    expect(calls.signed).toHaveLength(1);
    expect(store.step).toBe('confirm');
  });
});
