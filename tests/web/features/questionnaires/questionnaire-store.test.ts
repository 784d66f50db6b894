import { describe, expect, it } from 'vitest';
import {
  emptyOutcomeResult,
  type OutcomeProcessingResult,
  type Questionnaire,
  type QuestionnaireItem,
  type QuestionnaireType,
} from '@contract/api/questionnaires';
import { createApiClient } from '../../../../src-web/api/client';
import { createQuestionnairesApi } from '../../../../src-web/api/questionnaires-api';
import {
  BOOKING_FORM_DELAY_MS,
  outcomeActions,
  QuestionnaireStore,
  saveKindOf,
} from '../../../../src-web/features/questionnaires/questionnaire-store';
import { json, readJsonBody, type RouteHandler, startApiServer } from '../../helpers/api-server';
import { questionnaireDefinition } from './questionnaire-fixtures';

const KEY = 'tmpKey_abcdefghijklmnopqrstuv';

/** An MRI safety questionnaire of `type`, asked once per MRI exam unless `extra` says otherwise. */
function questionnaire(id: string, type: QuestionnaireType, extra: Partial<Questionnaire> = {}): Questionnaire {
  const mriSafety: Partial<Questionnaire> = {
    json: { elements: [{ type: 'boolean', name: 'pacemaker', title: 'Do you have a pacemaker?' }] },
    modalSize: 'lg',
    association: 'MODALITY',
    general: false,
    modalityIds: ['mr'],
  };
  return questionnaireDefinition({ id, slug: id, type, title: `Questionnaire ${id}`, ...mriSafety, ...extra });
}

function item(q: Questionnaire, examSlug: string | null, answered = false): QuestionnaireItem {
  return { questionnaire: q, examSlug, examSlugs: examSlug ? [examSlug] : [], modalityId: 'mr', answered };
}

const OK_OUTCOME: OutcomeProcessingResult = emptyOutcomeResult();

/** A store talking to a real local HTTP server; bodies of POSTs are recorded. */
async function setup(routes: Record<string, (body: unknown) => { status: number; body: unknown }>) {
  const posted: { path: string; body: unknown }[] = [];
  const handlers: Record<string, RouteHandler> = {};
  for (const [route, answer] of Object.entries(routes)) {
    handlers[route] = (request, response) => {
      void readJsonBody(request).then((body) => {
        posted.push({ path: route, body });
        const { status, body: reply } = answer(body);
        json(response, status, reply);
      });
    };
  }
  const server = await startApiServer(handlers);
  const waits: number[] = [];
  const store = new QuestionnaireStore({
    api: createQuestionnairesApi(createApiClient(server.url)),
    wait: async (ms) => {
      waits.push(ms);
    },
  });
  return { store, posted, waits, server };
}

describe('where an answer is saved', () => {
  it('should keep booking-time answers temporary and put later ones on the appointment, pain scores and booking requests apart', () => {
    expect(saveKindOf('BOOKING_FORM', 'BOOKING')).toBe('temporary');
    expect(saveKindOf('CREATE_BOOKING_REQUEST', 'BOOKING')).toBe('temporary');
    expect(saveKindOf('REQUIRED_ON_CONFIRMATION', 'APPOINTMENT')).toBe('appointment');
    expect(saveKindOf('CANCEL_APPOINTMENT_PATIENT', 'APPOINTMENT')).toBe('appointment');
    expect(saveKindOf('PAIN_SCORE_INITIAL', 'APPOINTMENT')).toBe('pain-score');
    expect(saveKindOf('PAIN_SCORE_FINAL', 'APPOINTMENT')).toBe('pain-score');
    expect(saveKindOf('PROTOCOL', 'BOOKING_REQUEST')).toBe('booking-request');
  });
});

describe('outcome results as actions', () => {
  it('should deny alone when the booking is refused, whatever else is set', () => {
    expect(
      outcomeActions({ ...OK_OUTCOME, success: false, message: 'No MRI with a pacemaker', url: '/x', medicareNumberRequired: true }),
    ).toEqual([{ kind: 'deny', message: 'No MRI with a pacemaker', bookingRequest: false, maxAttemptsReached: false }]);
  });

  it('should follow every other result: Medicare, booking request, walk-in, exam swap and redirect', () => {
    const actions = outcomeActions({
      ...OK_OUTCOME,
      medicareNumberRequired: true,
      createBookingRequest: true,
      documentTypeId: 'doc-1',
      documentType: { title: 'Referral', description: 'The referral from your doctor.' },
      walkInExamName: 'X-ray chest',
      prepTime: 5,
      minutesPrior: 15,
      newExamSlug: 'ct-abdomen-contrast',
      examChange: { oldSlug: 'ct-abdomen', newSlug: 'ct-abdomen-contrast', oldestSlug: 'ct-abdomen' },
      url: 'https://example.com/info',
    });
    expect(actions).toEqual([
      { kind: 'createBookingRequest', message: null },
      { kind: 'medicareNumberRequired' },
      { kind: 'documentType', documentTypeId: 'doc-1', title: 'Referral', description: 'The referral from your doctor.' },
      { kind: 'walkInExam', name: 'X-ray chest', prepTime: 5, minutesPrior: 15 },
      { kind: 'examSwap', oldSlug: 'ct-abdomen', newSlug: 'ct-abdomen-contrast' },
      { kind: 'redirect', url: 'https://example.com/info' },
    ]);
    expect(outcomeActions(OK_OUTCOME)).toEqual([]);
  });
});

describe('a booking run of questionnaires', () => {
  it('should open the unanswered ones one at a time, BOOKING_FORM after 100 ms, saving each as a temporary answer and processing outcomes', async () => {
    const { store, posted, waits } = await setup({
      'POST /api/questionnaires/temporary-answers': () => ({
        status: 200,
        body: { questionnaireId: 'x', questionnaireType: 'BOOKING_FORM', examSlug: null, savedAt: '' },
      }),
      'POST /api/questionnaires/outcomes': () => ({ status: 200, body: OK_OUTCOME }),
    });
    const general = questionnaire('11111111-1111-4111-8111-111111111111', 'BOOKING_FORM', { general: true, association: 'GENERAL' });
    const answered = questionnaire('22222222-2222-4222-8222-222222222222', 'BOOKING_FORM');
    const mri = questionnaire('33333333-3333-4333-8333-333333333333', 'CREATE_BOOKING_REQUEST');
    const followed: string[] = [];
    await store.run('BOOKING', KEY, [item(general, null), item(answered, 'mri-knee', true), item(mri, 'mri-knee')], {
      exams: ['mri-knee'],
      follow: (_, done) => void followed.push(done.questionnaire.id),
    });
    expect(store.pendingAtStart).toBe(2);
    expect(store.current?.questionnaire.id).toBe(general.id);
    expect(waits).toEqual([BOOKING_FORM_DELAY_MS]);

    expect(await store.submit({ pacemaker: false }, 'default error')).toBe(true);
    expect(posted[0]).toEqual({
      path: 'POST /api/questionnaires/temporary-answers',
      body: { bookingKey: KEY, questionnaireId: general.id, questionnaireResult: { pacemaker: false } },
    });
    expect(posted[1]).toEqual({ path: 'POST /api/questionnaires/outcomes', body: { bookingKey: KEY, exams: ['mri-knee'] } });
    // The next one is not a BOOKING_FORM: it opens at once.
    expect(store.current?.questionnaire.id).toBe(mri.id);
    expect(waits).toEqual([BOOKING_FORM_DELAY_MS]);

    expect(await store.submit({ pacemaker: false }, 'default error')).toBe(true);
    expect(posted[2]?.body).toEqual({
      bookingKey: KEY,
      questionnaireId: mri.id,
      examSlug: 'mri-knee',
      questionnaireResult: { pacemaker: false },
    });
    expect(store.state).toBe('done');
    expect(store.current).toBeNull();
    expect(store.answeredCount).toBe(2);
    expect(followed).toEqual([general.id, mri.id]);
  });

  it('should stop at a denial with the provider message and open nothing after it', async () => {
    const { store } = await setup({
      'POST /api/questionnaires/temporary-answers': () => ({ status: 200, body: {} }),
      'POST /api/questionnaires/outcomes': () => ({
        status: 200,
        body: { ...OK_OUTCOME, success: false, message: 'Patients with a pacemaker cannot book an MRI online.' },
      }),
    });
    const first = questionnaire('11111111-1111-4111-8111-111111111111', 'CREATE_BOOKING_REQUEST');
    const second = questionnaire('22222222-2222-4222-8222-222222222222', 'CREATE_BOOKING_REQUEST');
    await store.run('BOOKING', KEY, [item(first, 'mri-knee'), item(second, 'mri-knee')], { exams: ['mri-knee'] });
    await store.submit({ pacemaker: true }, 'default error');
    expect(store.denied).toEqual({ message: 'Patients with a pacemaker cannot book an MRI online.' });
    expect(store.state).toBe('done');
    expect(store.current).toBeNull();
    expect(store.remaining).toBe(1);
  });

  it('should keep the questionnaire open with the server message when the answer is refused, and the default text when there is none', async () => {
    let status = 400;
    const { store } = await setup({
      'POST /api/questionnaires/temporary-answers': () =>
        status === 400
          ? { status, body: { code: 'validation_failed', message: 'Please answer every required question.' } }
          : { status, body: 'oops' },
    });
    const q = questionnaire('11111111-1111-4111-8111-111111111111', 'CREATE_BOOKING_REQUEST');
    await store.run('BOOKING', KEY, [item(q, 'mri-knee')]);
    expect(await store.submit({}, 'Your answers could not be saved.')).toBe(false);
    expect(store.current?.questionnaire.id).toBe(q.id);
    expect(store.error).toBe('Please answer every required question.');
    status = 500;
    expect(await store.submit({}, 'Your answers could not be saved.')).toBe(false);
    expect(store.error).toBe('Your answers could not be saved.');
    expect(store.failure).toBeNull();
  });
});

describe('questionnaires after booking', () => {
  /** The appointment's pending list: this questionnaire, not answered yet. */
  const pendingOf = (q: Questionnaire) => ({
    bookingKey: 'BK_abcdefghijklmnopqrstuv',
    questionnaires: [item(q, null)],
    allAnswered: false,
    answers: [],
  });
  /** A store on the test server that does not wait before trying again. */
  const storeOn = (url: string) =>
    new QuestionnaireStore({ api: createQuestionnairesApi(createApiClient(url)), wait: async () => undefined });

  it('should list the pending ones of an appointment and save a cancel questionnaire that cancels it', async () => {
    const cancel = questionnaire('44444444-4444-4444-8444-444444444444', 'CANCEL_APPOINTMENT_PATIENT');
    const server = await startApiServer({
      'GET /api/questionnaires/appointments/BK_abcdefghijklmnopqrstuv': (request, response) => {
        expect(request.url).toContain('types=CANCEL_APPOINTMENT_PATIENT');
        json(response, 200, pendingOf(cancel));
      },
      'POST /api/questionnaires/appointments/BK_abcdefghijklmnopqrstuv/answers': (_, response) =>
        json(response, 200, {
          questionnaireId: cancel.id,
          questionnaireType: 'CANCEL_APPOINTMENT_PATIENT',
          examSlug: null,
          savedAt: '',
          appointmentStatus: 'CANCELED',
        }),
    });
    const store = storeOn(server.url);
    await store.load('APPOINTMENT', 'BK_abcdefghijklmnopqrstuv', ['CANCEL_APPOINTMENT_PATIENT']);
    expect(store.current?.questionnaire.id).toBe(cancel.id);
    expect(await store.submit({ reason: 'moved' }, 'x')).toBe(true);
    expect(store.cancelled).toBe(true);
    expect(store.state).toBe('done');
  });

  it('should report a pain score failure (the page goes to /deny) with the server message', async () => {
    const pain = questionnaire('55555555-5555-4555-8555-555555555555', 'PAIN_SCORE_INITIAL');
    const server = await startApiServer({
      'GET /api/questionnaires/appointments/BK_abcdefghijklmnopqrstuv': (_, response) => json(response, 200, pendingOf(pain)),
      'POST /api/questionnaires/appointments/BK_abcdefghijklmnopqrstuv/pain-score': (_, response) =>
        json(response, 409, { code: 'conflict', message: 'The pain score is closed.' }),
    });
    const store = storeOn(server.url);
    await store.load('APPOINTMENT', 'BK_abcdefghijklmnopqrstuv', ['PAIN_SCORE_INITIAL']);
    expect(await store.submit({ score: 4 }, 'x')).toBe(false);
    expect(store.failure).toEqual({ kind: 'pain-score', message: 'The pain score is closed.' });
  });

  it('should say all is answered when nothing is pending', async () => {
    const server = await startApiServer({
      'GET /api/questionnaires/appointments/BK_abcdefghijklmnopqrstuv': (_, response) =>
        json(response, 200, {
          bookingKey: 'BK_abcdefghijklmnopqrstuv',
          questionnaires: [item(questionnaire('6', 'REQUIRED_ON_CONFIRMATION'), null, true)],
          allAnswered: true,
          answers: [],
        }),
    });
    const store = new QuestionnaireStore({ api: createQuestionnairesApi(createApiClient(server.url)) });
    await store.load('APPOINTMENT', 'BK_abcdefghijklmnopqrstuv');
    expect(store.state).toBe('done');
    expect(store.pendingAtStart).toBe(0);
    expect(store.current).toBeNull();
  });
});
