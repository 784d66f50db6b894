import { describe, expect, it } from 'vitest';
import type { FeedbackQuestionnaireResponse } from '@contract/api/referrer-feedback';
import { ApiError } from '../../../../src-web/api/client';
import type { FeedbackCredentials, ReferrerFeedbackApi } from '../../../../src-web/features/referrer-feedback/referrer-feedback-api';
import { ReportFeedbackStore, type FeedbackWindow } from '../../../../src-web/features/referrer-feedback/report-feedback-store';

const QUESTIONNAIRE: FeedbackQuestionnaireResponse = {
  alreadyProvided: false,
  questionnaire: {
    questionnaireId: '00000000-0000-4000-8000-00000000000a',
    modalSize: 'lg',
    examSlugs: ['mri-knee'],
    modalityIds: ['00000000-0000-4000-8000-00000000000b'],
    questionnaire: { elements: [{ type: 'rating', name: 'clarity' }] },
    report: { patientName: 'Liam Example', examName: 'MRI knee', reportedAt: '2026-01-03T01:00:00.000Z' },
  },
};

/** The API's answers as the server gives them, recording what the store sent. */
function fakeApi(answers: { questionnaire?: () => Promise<FeedbackQuestionnaireResponse>; submit?: () => Promise<void> } = {}) {
  const calls: { kind: string; credentials: FeedbackCredentials; body?: unknown }[] = [];
  const api: ReferrerFeedbackApi = {
    questionnaire: (credentials) => {
      calls.push({ kind: 'questionnaire', credentials });
      return (answers.questionnaire ?? (() => Promise.resolve(QUESTIONNAIRE)))();
    },
    submit: async (credentials, body) => {
      calls.push({ kind: 'submit', credentials, body });
      await (answers.submit ?? (() => Promise.resolve()))();
      return { id: '00000000-0000-4000-8000-00000000000c', createdAt: '2026-03-10T01:00:00.000Z' };
    },
    list: () => Promise.reject(new Error('the feedback page never lists')),
  };
  return { api, calls };
}

/** A window whose timers run only when told, and whose navigation is recorded. */
function fakeWindow() {
  const timers = new Map<number, () => void>();
  const assigned: string[] = [];
  let next = 1;
  const win: FeedbackWindow = {
    setTimeout: (handler) => {
      timers.set(next, handler);
      return next++;
    },
    clearTimeout: (id) => timers.delete(id),
    location: { assign: (url) => assigned.push(url) },
  };
  const tick = () => {
    const [id, handler] = [...timers.entries()][0] ?? [];
    if (id === undefined || handler === undefined) throw new Error('no timer pending');
    timers.delete(id);
    handler();
  };
  return { win, assigned, tick, pending: () => timers.size };
}

const input = { imsec: 'v1.k1.payload.tag', accession: null, enabled: true, redirectUrl: '/about' };

describe('ReportFeedbackStore', () => {
  it.each([
    ['be in error without asking the server when feedback is switched off', { enabled: false }, 'error'],
    ['say no valid credentials without ?imsec or ?accession', { imsec: null, accession: '  ' }, 'noCredentials'],
  ] as const)('should %s', async (_what, change, state) => {
    const { api, calls } = fakeApi();
    const store = new ReportFeedbackStore({ api, win: fakeWindow().win });
    await store.open({ ...input, ...change });
    expect(store.state).toBe(state);
    expect(calls).toEqual([]);
  });

  it('should ask with the accession number as pacsAppointmentId when there is no imsec', async () => {
    const { api, calls } = fakeApi();
    const store = new ReportFeedbackStore({ api, win: fakeWindow().win });
    await store.open({ ...input, imsec: null, accession: 'ACC-1' });
    expect(calls[0]?.credentials).toEqual({ pacsAppointmentId: 'ACC-1' });
    expect(store.state).toBe('questionnaire');
    expect(store.surveyOpen).toBe(true);
  });

  it('should thank, count down 4 s one second at a time, then go to the configured page', async () => {
    const { api, calls } = fakeApi();
    const clock = fakeWindow();
    const store = new ReportFeedbackStore({ api, win: clock.win });
    await store.open(input);
    expect(await store.submit({ clarity: 5 }, 'fallback')).toBe(true);
    expect(calls[1]?.body).toEqual({ questionnaireId: QUESTIONNAIRE.questionnaire?.questionnaireId, questionnaireResult: { clarity: 5 } });
    expect(store.state).toBe('provided');
    expect(store.surveyOpen).toBe(false);
    const seen: number[] = [store.secondsLeft];
    for (let second = 0; second < 3; second += 1) {
      clock.tick();
      seen.push(store.secondsLeft);
    }
    expect(seen).toEqual([4, 3, 2, 1]);
    expect(clock.assigned).toEqual([]);
    clock.tick();
    expect(store.state).toBe('redirect');
    expect(clock.assigned).toEqual(['/about']);
    expect(clock.pending()).toBe(0);
  });

  it('should stay on the thank-you without a configured page', async () => {
    const clock = fakeWindow();
    const store = new ReportFeedbackStore({ api: fakeApi().api, win: clock.win });
    await store.open({ ...input, redirectUrl: null });
    await store.submit({ clarity: 5 }, 'fallback');
    expect(store.state).toBe('provided');
    expect(clock.pending()).toBe(0);
  });

  it('should say already provided when the server answers alreadyProvided, or 409 to the answer', async () => {
    const first = new ReportFeedbackStore({
      api: fakeApi({ questionnaire: () => Promise.resolve({ alreadyProvided: true, questionnaire: null }) }).api,
      win: fakeWindow().win,
    });
    await first.open(input);
    expect(first.state).toBe('alreadyProvided');

    const conflict = new ApiError('http', 409, 'feedback_already_provided', 'feedback already provided');
    const second = new ReportFeedbackStore({ api: fakeApi({ submit: () => Promise.reject(conflict) }).api, win: fakeWindow().win });
    await second.open(input);
    expect(await second.submit({ clarity: 5 }, 'fallback')).toBe(false);
    expect(second.state).toBe('alreadyProvided');
  });

  it("should keep the survey open with the server's message for a refused answer, else the fallback", async () => {
    const refused = new ApiError('http', 400, 'validation_failed', 'How clear was the report? needs an answer.');
    const store = new ReportFeedbackStore({ api: fakeApi({ submit: () => Promise.reject(refused) }).api, win: fakeWindow().win });
    await store.open(input);
    expect(await store.submit({}, 'fallback')).toBe(false);
    expect(store.state).toBe('questionnaire');
    expect(store.submitError).toBe('How clear was the report? needs an answer.');

    const offline = new ReportFeedbackStore({
      api: fakeApi({ submit: () => Promise.reject(new ApiError('network', 0, 'service_unavailable', 'offline')) }).api,
      win: fakeWindow().win,
    });
    await offline.open(input);
    await offline.submit({ clarity: 1 }, 'fallback');
    expect(offline.submitError).toBe('fallback');
  });

  it('should be in error when the link is refused', async () => {
    const refused = new ApiError('http', 403, 'forbidden', 'This feedback link is not valid.');
    const store = new ReportFeedbackStore({ api: fakeApi({ questionnaire: () => Promise.reject(refused) }).api, win: fakeWindow().win });
    await store.open(input);
    expect(store.state).toBe('error');
  });
});
