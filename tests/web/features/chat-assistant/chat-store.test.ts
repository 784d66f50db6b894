import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BookingRequestCreate, ClinicWithDistance } from '@contract/api/booking';
import { createExamSearch } from '../../../../src-contract/search/exam-search';
import { ApiError } from '../../../../src-web/api/client';
import {
  CHAT_OPEN_DELAY_MS,
  UPLOAD_FIRST_DEBOUNCE_MS,
  UPLOAD_NEXT_DEBOUNCE_MS,
} from '../../../../src-web/features/chat-assistant/chat-constants';
import type { ChatLine, Choice, Say } from '../../../../src-web/features/chat-assistant/chat-lines';
import { ChatStore, type ChatDeps } from '../../../../src-web/features/chat-assistant/chat-store';
import { ChatUploadQueue } from '../../../../src-web/features/chat-assistant/chat-upload-queue';
import { demoCatalogue } from '../booking/exam-demo-catalogue';

// The chat assistant's conversation (docs/rules/chat.md#the-conversation) without a browser: the
// real exam search over the demo catalogue; the server's calls recorded in memory.

const CATALOGUE = demoCatalogue();

function clinic(slug: string, name: string, suburb: string): ClinicWithDistance {
  return {
    clinic: {
      id: slug,
      slug,
      name,
      region: { id: 'r', slug: 'sydney', name: 'Sydney' },
      address: { street: '1 Main St', suburb, state: 'NSW', postcode: '2150' },
      latitude: -33.8,
      longitude: 151,
      timeZone: 'Australia/Sydney',
      phone: '',
    },
    distanceKm: 1,
    nextAvailable: null,
  };
}

const CLINICS = [
  clinic('parramatta', 'Parramatta', 'Parramatta'),
  clinic('liverpool', 'Liverpool', 'Liverpool'),
  clinic('penrith', 'Penrith', 'Penrith'),
];

/** The patient the contact questions are answered for (the title differs from test to test). */
const ADA = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  dateOfBirth: '1991-03-14',
  email: 'ada@example.com',
  contactNumber: '0412345678',
  postalCode: '2150',
};

interface Recorded {
  uploads: string[];
  keys: number;
  requests: Array<{ body: BookingRequestCreate; key: string }>;
}

function setUp(overrides: Partial<ChatDeps> = {}) {
  const recorded: Recorded = { uploads: [], keys: 0, requests: [] };
  let uuid = 0;
  const deps: ChatDeps = {
    catalogue: async () => CATALOGUE,
    searchFor: async (catalogue) => createExamSearch(catalogue),
    clinics: async () => CLINICS,
    newBookingKey: async () => {
      recorded.keys += 1;
      return `temporary-key-${recorded.keys}-abcdefghijklmnop`;
    },
    referralTypeId: async () => 'referral-type',
    upload: async (_key, file, _type, onProgress) => {
      onProgress(50);
      recorded.uploads.push(file.name);
    },
    createRequest: async (body, key) => {
      recorded.requests.push({ body, key });
      return { bookingKey: 'AbCdEfGhIjKlMnOpQrStUv', results: [{ examSlug: body.exams[0] ?? '', success: true }] };
    },
    uuid: () => `00000000-0000-4000-8000-00000000000${++uuid}`,
    today: () => '2026-03-10',
    ...overrides,
  };
  return { store: new ChatStore(deps), recorded };
}

const said = (store: ChatStore): Say[] => store.lines.flatMap((line: ChatLine) => (line.from === 'assistant' ? [line.say] : []));
const lastSaid = (store: ChatStore): Say | undefined => said(store).at(-1);
const saidKeys = (store: ChatStore): string[] => said(store).map((say) => say.key);
const choice = (store: ChatStore, kind: Choice['kind']): Choice => {
  const found = store.choices.find((each) => each.kind === kind);
  if (!found) throw new Error(`no ${kind} choice among ${store.choices.map((each) => each.kind).join(', ')}`);
  return found;
};
const pdf = (name: string): File => new File(['%PDF-1.4'], name, { type: 'application/pdf' });

async function opened(store: ChatStore): Promise<void> {
  store.open();
  await vi.advanceTimersByTimeAsync(CHAT_OPEN_DELAY_MS);
}

/** Typed as a patient would: the first match for an X-ray chest, then any clinic; on to the times question. */
async function typedToTimes(store: ChatStore): Promise<void> {
  await opened(store);
  await store.answer('xray of my chest');
  await store.answer('1');
  await store.answer('any');
}

/** Through the exam (X-ray chest), any clinic and weekday mornings, to the referral question. */
async function toReferral(store: ChatStore): Promise<void> {
  await opened(store);
  await store.answer('xray of my chest');
  await store.choose(store.choices.find((each) => each.kind === 'exam' && each.slug === 'xr-chest') as Choice, 'X-ray chest');
  await store.choose(choice(store, 'anyClinic'), 'Any clinic');
  store.toggleTime('weekdayMorning');
  await store.choose(choice(store, 'timesDone'), 'Continue');
}

async function toSummary(store: ChatStore): Promise<void> {
  await toReferral(store);
  await store.choose(choice(store, 'bringIt'), "I'll bring it on the day");
  await store.answer('ms');
  for (const typed of ['Ada', 'Lovelace', '14/03/1991', 'ada@example.com', '0412 345 678', '2150']) await store.answer(typed);
}

describe('the chat assistant conversation', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('opens with a typing indicator and asks the first question CHAT_OPEN_DELAY_MS later', async () => {
    const { store } = setUp();
    expect(CHAT_OPEN_DELAY_MS).toBe(2000);
    store.open();
    expect(store.typing).toBe(true);
    await vi.advanceTimersByTimeAsync(CHAT_OPEN_DELAY_MS - 1);
    expect(store.lines).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(store.typing).toBe(false);
    expect(saidKeys(store)).toEqual(['greeting', 'askExam']);
    // Opening again (after a close) does not start over.
    store.open();
    await vi.advanceTimersByTimeAsync(CHAT_OPEN_DELAY_MS);
    expect(saidKeys(store)).toEqual(['greeting', 'askExam']);
  });

  it("searches the patient's words with the booking's exam search and offers up to 3 matches and Something else", async () => {
    const { store } = setUp();
    await opened(store);
    await store.answer('xray of my chest');
    expect(store.lines.at(-2)).toMatchObject({ from: 'patient', text: 'xray of my chest' });
    expect(lastSaid(store)).toEqual({ key: 'matches' });
    const exams = store.choices.filter((each) => each.kind === 'exam');
    expect(exams.length).toBeGreaterThan(0);
    expect(exams.length).toBeLessThanOrEqual(3);
    expect(exams[0]).toMatchObject({ slug: 'xr-chest' });
    expect(store.choices.at(-1)).toEqual({ kind: 'somethingElse' });
    // A number picks an offered exam.
    await store.answer('1');
    expect(store.exam?.slug).toBe('xr-chest');
    expect(store.step).toBe('clinic');
  });

  it('no word to search, or no match: says so and asks again', async () => {
    const { store } = setUp();
    await opened(store);
    await store.answer('the scan');
    expect(saidKeys(store).slice(-2)).toEqual(['searchEmpty', 'askExam']);
    await store.answer('qqqzzz wwwxxx');
    expect(saidKeys(store).slice(-2)).toEqual(['noMatch', 'askExam']);
    expect(store.step).toBe('exam');
  });

  it('the clinic: typed by suburb, an unknown name is asked again, "any" is any clinic', async () => {
    const { store } = setUp();
    await opened(store);
    await store.answer('xray of my chest');
    await store.answer('1');
    expect(lastSaid(store)).toEqual({ key: 'askClinic', exam: 'X-ray chest' });
    expect(store.choices.map((each) => each.kind)).toEqual(['clinic', 'clinic', 'clinic', 'anyClinic']);
    await store.answer('Bondi');
    expect(saidKeys(store).slice(-2)).toEqual(['clinicUnknown', 'askClinic']);
    await store.answer('liverpool');
    expect(store.clinic).toEqual({ slug: 'liverpool', name: 'Liverpool' });
    expect(store.step).toBe('times');
  });

  it('the times: none chosen is asked again; typed words are read; several may be chosen', async () => {
    const { store } = setUp();
    await typedToTimes(store);
    await store.choose(choice(store, 'timesDone'), 'Continue');
    expect(saidKeys(store).slice(-2)).toEqual(['timesNone', 'askTimes']);
    await store.answer('saturday morning');
    expect(store.times).toEqual(['saturdayMorning']);
    expect(store.step).toBe('referral');
  });

  it.each([
    ['mornings or saturday', ['weekdayMorning', 'saturdayMorning']],
    ['afternoons', ['weekdayAfternoon']],
    ['Saturday mornings or weekday afternoons', ['weekdayAfternoon', 'saturdayMorning']],
    ['any time', ['anyTime']],
  ] as const)('times typed as "%s"', async (typed, times) => {
    const { store } = setUp();
    await typedToTimes(store);
    await store.answer(typed);
    expect(store.times).toEqual(times);
    expect(store.step).toBe('referral');
  });

  it('the upload queue: files go UPLOAD_FIRST_DEBOUNCE_MS after the first pick, as one batch with a later pick', async () => {
    const { store, recorded } = setUp();
    await toReferral(store);
    expect([UPLOAD_FIRST_DEBOUNCE_MS, UPLOAD_NEXT_DEBOUNCE_MS]).toEqual([3000, 1000]);
    store.pickFiles([pdf('page-1.pdf')]);
    await vi.advanceTimersByTimeAsync(2500);
    store.pickFiles([pdf('page-2.pdf')]);
    expect(store.uploads.queue).toHaveLength(2);
    // The later pick moves the batch to 1000 ms after it: 3500 ms after the first.
    await vi.advanceTimersByTimeAsync(999);
    expect(recorded.uploads).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(recorded.uploads).toEqual(['page-1.pdf', 'page-2.pdf']);
    expect(recorded.keys).toBe(1);
    expect(lastSaid(store)).toEqual({ key: 'uploadsDone', count: 2 });
    expect(store.referral).toBe('uploaded');
    expect(store.uploads.uploadCounter).toBe(2);
    expect(store.choices.map((each) => each.kind)).toEqual(['upload', 'referralDone']);
  });

  it('the upload queue: a further pick soon after the first does not send before the first wait is over', async () => {
    const sent: number[] = [];
    const queue = new ChatUploadQueue({ send: async () => void sent.push(Date.now()), onBatchDone: () => undefined });
    const start = Date.now();
    queue.add([pdf('a.pdf')]);
    await vi.advanceTimersByTimeAsync(500);
    queue.add([pdf('b.pdf')]);
    await vi.advanceTimersByTimeAsync(UPLOAD_FIRST_DEBOUNCE_MS - 501);
    expect(sent).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent.map((at) => at - start)).toEqual([UPLOAD_FIRST_DEBOUNCE_MS, UPLOAD_FIRST_DEBOUNCE_MS]);
  });

  it("a refused file shows the server's words; a wrong type is not queued", async () => {
    const { store } = setUp({
      upload: async () => {
        throw new ApiError('http', 413, 'payload_too_large', 'This file is larger than 20 MB.');
      },
    });
    await toReferral(store);
    store.pickFiles([new File(['x'], 'notes.docx', { type: 'application/msword' }), pdf('big.pdf')]);
    expect(lastSaid(store)).toEqual({ key: 'fileType', fileName: 'notes.docx' });
    expect(store.uploads.queue.map((item) => item.file.name)).toEqual(['big.pdf']);
    await vi.advanceTimersByTimeAsync(UPLOAD_FIRST_DEBOUNCE_MS);
    const fileLine = store.lines.find((line) => line.from === 'file');
    expect(fileLine?.from === 'file' && [fileLine.file.status, fileLine.file.problem]).toEqual([
      'failed',
      'This file is larger than 20 MB.',
    ]);
    expect(lastSaid(store)).toEqual({ key: 'uploadsDone', count: 0 });
    expect(store.choices.map((each) => each.kind)).toEqual(['upload', 'bringIt', 'noReferral']);
  });

  it("the details: each checked with the booking's schema; a bad one gets its message and the question again", async () => {
    const { store } = setUp();
    await toReferral(store);
    await store.choose(choice(store, 'noReferral'), "I don't have one");
    expect(lastSaid(store)).toEqual({ key: 'askField', field: 'title' });
    // Each answer, and the field whose problem the assistant then names before asking again (null: accepted).
    const answers: [string, string | null][] = [
      ['Sir', 'title'],
      ['dr', null],
      ['Ada 2', 'firstName'],
      ['Ada', null],
      ['Lovelace', null],
      ['14/03/2030', 'dateOfBirthFuture'],
      ['31/02/1990', 'dateOfBirth'],
      ['14/3/1991', null],
      ['ada-at-example', 'email'],
      ['ada@example.com', null],
      ['0412 345 678', null],
      ['21', 'postalCode'],
      ['2150', null],
    ];
    for (const [text, problem] of answers) {
      await store.answer(text);
      if (problem !== null) {
        expect(saidKeys(store).slice(-2)).toEqual(['problem', 'askField']);
        expect(said(store).at(-2)).toEqual({ key: 'problem', field: problem });
      } else expect(said(store).at(-2)).not.toEqual(expect.objectContaining({ key: 'problem' }));
    }
    expect(store.contact).toEqual({ title: 'Dr', ...ADA });
    expect(store.step).toBe('summary');
  });

  it('sends a chat request with the times, the clinic choice and the referral key; a retry keeps the Idempotency-Key', async () => {
    let failures = 1;
    const requests: Array<{ body: BookingRequestCreate; key: string }> = [];
    const { store } = setUp({
      createRequest: async (body, key) => {
        requests.push({ body, key });
        if (failures-- > 0) throw new ApiError('network', 0, 'service_unavailable', 'offline');
        return { bookingKey: 'AbCdEfGhIjKlMnOpQrStUv', results: [{ examSlug: 'xr-chest', success: true }] };
      },
    });
    await toReferral(store);
    store.pickFiles([pdf('referral.pdf')]);
    await vi.advanceTimersByTimeAsync(UPLOAD_FIRST_DEBOUNCE_MS);
    await store.choose(choice(store, 'referralDone'), 'Continue');
    await store.answer('Ms');
    for (const typed of ['Ada', 'Lovelace', '1991-03-14', 'ada@example.com', '0412345678', '2150']) await store.answer(typed);
    await store.choose(choice(store, 'send'), 'Send request');
    expect(lastSaid(store)).toEqual({ key: 'failed' });
    await store.choose(choice(store, 'retry'), 'Try again');
    expect(requests.map((request) => request.key)).toEqual([requests[0]?.key, requests[0]?.key]);
    expect(requests[1]?.body).toEqual({
      channel: 'chat',
      preferredTimes: ['weekdayMorning'],
      exams: ['xr-chest'],
      questionnaireKey: 'temporary-key-1-abcdefghijklmnop',
      patient: { title: 'Ms', ...ADA },
    });
    expect(store.step).toBe('done');
    expect(store.sentKey).toBe('AbCdEfGhIjKlMnOpQrStUv');
    expect(lastSaid(store)).toEqual({ key: 'sent', exam: 'X-ray chest' });
  });

  it("a refused request says the server's words and lets the patient change a step, then returns to the summary", async () => {
    const { store, recorded } = setUp({
      createRequest: async () => {
        throw new ApiError('http', 400, 'bad_request', 'X-ray chest is not offered at Parramatta.');
      },
    });
    await toSummary(store);
    await store.choose(choice(store, 'send'), 'Send request');
    expect(lastSaid(store)).toEqual({ key: 'server', text: 'X-ray chest is not offered at Parramatta.' });
    await store.choose(choice(store, 'change'), 'Change something');
    expect(store.choices.map((each) => (each.kind === 'changeStep' ? each.step : each.kind))).toEqual([
      'exam',
      'clinic',
      'times',
      'referral',
      'contact',
    ]);
    await store.choose({ kind: 'changeStep', step: 'clinic' }, 'The clinic');
    await store.answer('Penrith');
    expect(store.clinic?.slug).toBe('penrith');
    expect(store.step).toBe('summary');
    expect(recorded.requests).toEqual([]);
  });

  it('asks the Medicare number when the exam needs it', async () => {
    const { store } = setUp();
    await opened(store);
    await store.answer('mri knee');
    const knee = store.choices.find((each) => each.kind === 'exam' && each.slug === 'mri-knee') as Choice;
    await store.choose(knee, 'MRI knee');
    await store.answer('any');
    await store.answer('any time');
    await store.answer("I don't have one");
    await store.answer('Mr');
    for (const typed of ['Liam', 'Nguyen', '1991-03-14', 'liam@example.com', '0412345678', '2150']) await store.answer(typed);
    expect(lastSaid(store)).toEqual({ key: 'askField', field: 'medicareNumber' });
    await store.answer('1234');
    expect(said(store).at(-2)).toEqual({ key: 'problem', field: 'medicareNumber' });
    await store.answer('2123 45670 1');
    expect(store.request.patient.medicareNumber).toBe('2123456701');
    expect(store.step).toBe('summary');
  });
});
