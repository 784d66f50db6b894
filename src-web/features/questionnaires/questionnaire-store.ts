import { makeAutoObservable, observableRef, runInAction } from 'mobx';
import type {
  OutcomeProcessingResult,
  Questionnaire,
  QuestionnaireItem,
  QuestionnaireListResponse,
  QuestionnaireType,
} from '@contract/api/questionnaires';
import { ApiError } from '../../api/client';
import { createQuestionnairesApi, type QuestionnairesApi } from '../../api/questionnaires-api';
import type { FeatureStoreContext } from '../../stores/root-store';
import { LatestRun } from '../../platform/load-state';
import { refusalMessage } from '../../api/refusal';

export type { OutcomeProcessingResult, Questionnaire, QuestionnaireItem, QuestionnaireType } from '@contract/api/questionnaires';

/** What the survey modal needs of a questionnaire. */
export type SurveyQuestionnaire = Pick<
  Questionnaire,
  'id' | 'type' | 'json' | 'title' | 'modalSize' | 'css' | 'showClose' | 'showClosingConfirmation' | 'showPreviousButtonOnLastPageEnabled'
>;

/** A BOOKING_FORM questionnaire opens 100 ms after it is reached; the others at once. */
export const BOOKING_FORM_DELAY_MS = 100;

/** Whose questionnaires a run answers: the booking being made, an appointment, a booking request. */
export type QuestionnaireSubject = 'BOOKING' | 'APPOINTMENT' | 'BOOKING_REQUEST';

export type SaveKind = 'temporary' | 'appointment' | 'pain-score' | 'booking-request';

/**
 * Where an answer is saved (docs/rules/questionnaires.md#saving-answers): during booking, temporarily under
 * the booking key per exam (general ones without an exam); after booking, post-booking types
 * against the appointment, pain scores by booking key, protocol (and the rest of a booking
 * request's) as a booking-request answer.
 */
export function saveKindOf(type: QuestionnaireType, subject: QuestionnaireSubject): SaveKind {
  if (subject === 'BOOKING') return 'temporary';
  if (subject === 'BOOKING_REQUEST') return 'booking-request';
  return type === 'PAIN_SCORE_INITIAL' || type === 'PAIN_SCORE_FINAL' ? 'pain-score' : 'appointment';
}

/** What the web app does with an outcome processing result (docs/rules/questionnaires.md#outcomes). */
export type OutcomeAction =
  | { kind: 'deny'; message: string | null; bookingRequest: boolean; maxAttemptsReached: boolean }
  | { kind: 'createBookingRequest'; message: string | null }
  | { kind: 'medicareNumberRequired' }
  | { kind: 'validationCodeRequired' }
  | { kind: 'documentType'; documentTypeId: string; title: string; description: string }
  | { kind: 'insuranceType'; insuranceTypeId: string }
  | { kind: 'walkInExam'; name: string; prepTime: number; minutesPrior: number }
  | { kind: 'examSwap'; oldSlug: string; newSlug: string }
  | { kind: 'redirect'; url: string };

/** One outcome processing result as the actions to follow; a denial stops everything else. */
export function outcomeActions(result: OutcomeProcessingResult): OutcomeAction[] {
  if (!result.success || result.maxAttemptsReached) {
    return [
      { kind: 'deny', message: result.message, bookingRequest: result.bookingRequestDenied, maxAttemptsReached: result.maxAttemptsReached },
    ];
  }
  const actions: OutcomeAction[] = [];
  if (result.createBookingRequest) actions.push({ kind: 'createBookingRequest', message: result.message });
  if (result.medicareNumberRequired) actions.push({ kind: 'medicareNumberRequired' });
  if (result.validationCodeRequired) actions.push({ kind: 'validationCodeRequired' });
  if (result.documentTypeId) {
    actions.push({
      kind: 'documentType',
      documentTypeId: result.documentTypeId,
      title: result.documentType?.title ?? '',
      description: result.documentType?.description ?? '',
    });
  }
  if (result.insuranceTypeId) actions.push({ kind: 'insuranceType', insuranceTypeId: result.insuranceTypeId });
  if (result.walkInExamName) {
    actions.push({
      kind: 'walkInExam',
      name: result.walkInExamName,
      prepTime: result.prepTime ?? 0,
      minutesPrior: result.minutesPrior ?? 0,
    });
  }
  const change = result.examChange;
  if (change) actions.push({ kind: 'examSwap', oldSlug: change.oldSlug, newSlug: change.newSlug });
  else if (result.newExamSlug) actions.push({ kind: 'examSwap', oldSlug: '', newSlug: result.newExamSlug });
  if (result.url) actions.push({ kind: 'redirect', url: result.url });
  return actions;
}

/** What a saved questionnaire came to, said in words after Complete (survey-outcome.tsx). */
export interface CompletionOutcome {
  title: string;
  /** saved: nothing else follows; bookingRequest: a request instead of a time; denied: not online. */
  kind: 'saved' | 'bookingRequest' | 'denied';
  /** The provider's message of the outcome, if any. */
  message: string | null;
}

/** The outcome of one saved answer from the actions it led to. */
export function completionOutcome(title: string, actions: OutcomeAction[]): CompletionOutcome {
  let outcome: CompletionOutcome = { title, kind: 'saved', message: null };
  for (const action of actions) {
    if (action.kind === 'deny') return { title, kind: 'denied', message: action.message };
    if (action.kind === 'createBookingRequest') outcome = { title, kind: 'bookingRequest', message: action.message };
  }
  return outcome;
}

/** Follows the actions of one answer (the booking flow, the page); may be async. */
export type OutcomeFollower = (actions: OutcomeAction[], item: QuestionnaireItem) => void | Promise<void>;

export interface QuestionnaireStoreDeps {
  api: QuestionnairesApi;
  /** Waits (the BOOKING_FORM delay); injected so tests do not sleep. */
  wait?: (ms: number) => Promise<void>;
}

export type RunState = 'idle' | 'loading' | 'answering' | 'done' | 'error';

/** A save that failed in a way that leaves the page. */
export type RunFailure = { kind: 'pain-score'; message: string | null } | { kind: 'protocol'; message: string | null };

/**
 * One run of questionnaires, opened one at a time (the /questionnaires page; the booking flow's
 * chosen exams): each answer is saved by type; in the booking flow its outcomes are then
 * processed on the server and the actions handed to the flow before the next one opens.
 */
export class QuestionnaireStore {
  state: RunState = 'idle';
  subject: QuestionnaireSubject = 'BOOKING';
  bookingKey: string | null = null;
  /** The chosen exams (booking flow: outcomes are processed for them). */
  exams: string[] = [];
  queue: QuestionnaireItem[] = [];
  /** The item whose modal is open (after the BOOKING_FORM delay), or null. */
  current: QuestionnaireItem | null = null;
  pendingAtStart = 0;
  answeredCount = 0;
  /** The failure line inside the modal (the server's message or message.error_answering_questionnaire). */
  error: string | null = null;
  saving = false;
  /** The run was stopped by a denial (the provider's message, or null for the default text). */
  denied: { message: string | null } | null = null;
  redirectUrl: string | null = null;
  failure: RunFailure | null = null;
  /** A cancel questionnaire cancelled the appointment. */
  cancelled = false;
  /** The patient closed a questionnaire unanswered. */
  closedUnanswered = false;
  /** What the last questionnaire saved in this run came to. */
  lastOutcome: CompletionOutcome | null = null;

  private readonly deps: QuestionnaireStoreDeps;
  private follow: OutcomeFollower = () => undefined;
  private readonly runs = new LatestRun();

  constructor(deps: QuestionnaireStoreDeps) {
    this.deps = deps;
    makeAutoObservable<this, 'deps' | 'follow' | 'runs'>(this, {
      deps: false,
      follow: false,
      runs: false,
      queue: observableRef,
      current: observableRef,
    });
  }

  get api(): QuestionnairesApi {
    return this.deps.api;
  }

  get remaining(): number {
    return this.queue.length;
  }

  private wait(ms: number): Promise<void> {
    return this.deps.wait ? this.deps.wait(ms) : new Promise((resolve) => setTimeout(resolve, ms));
  }

  /** Starts a run with these items: the unanswered ones open in order. */
  async run(
    subject: QuestionnaireSubject,
    bookingKey: string,
    items: QuestionnaireItem[],
    options: { exams?: string[]; follow?: OutcomeFollower } = {},
  ): Promise<void> {
    this.runs.start();
    this.subject = subject;
    this.bookingKey = bookingKey;
    this.exams = options.exams ?? [];
    this.follow = options.follow ?? (() => undefined);
    this.queue = items.filter((item) => !item.answered);
    this.pendingAtStart = this.queue.length;
    this.answeredCount = 0;
    this.error = null;
    this.denied = null;
    this.redirectUrl = null;
    this.failure = null;
    this.cancelled = false;
    this.closedUnanswered = false;
    this.lastOutcome = null;
    this.current = null;
    await this.openNext();
  }

  /**
   * The questionnaires of the booking's exams under its temporary key (docs/rules/questionnaires.md#temporary-keys):
   * a new key when there is none, or when the server no longer knows it (expired after 24 h, or
   * spent); `keyMade` takes a new key into the booking.
   */
  async forBooking(key: string | null, exams: string[], keyMade: (key: string) => void): Promise<QuestionnaireListResponse> {
    const fresh = async () => {
      const { bookingKey } = await this.deps.api.newBookingKey();
      keyMade(bookingKey);
      return bookingKey;
    };
    try {
      return await this.deps.api.forBooking({ bookingKey: key ?? (await fresh()), exams });
    } catch (error) {
      if (error instanceof ApiError && error.code === 'not_found') return this.deps.api.forBooking({ bookingKey: await fresh(), exams });
      throw error;
    }
  }

  /** What the answers already saved under the booking's key come to for these exams. */
  async bookingOutcomes(bookingKey: string, exams: string[]): Promise<OutcomeAction[]> {
    return outcomeActions(await this.deps.api.processOutcomes({ bookingKey, exams }));
  }

  /** A keyed booking failed: the answers move to a new key, which this answers. */
  async reKey(oldKey: string): Promise<string> {
    const { bookingKey } = await this.deps.api.newBookingKey();
    await this.deps.api.reKey(oldKey, bookingKey);
    return bookingKey;
  }

  /** The /questionnaires page: what is pending for an appointment or a booking request. */
  async load(subject: Exclude<QuestionnaireSubject, 'BOOKING'>, bookingKey: string, types?: QuestionnaireType[]): Promise<void> {
    const isCurrent = this.runs.start();
    this.state = 'loading';
    this.current = null;
    try {
      const response =
        subject === 'APPOINTMENT'
          ? await this.deps.api.forAppointment(bookingKey, types)
          : await this.deps.api.forBookingRequest(bookingKey, types);
      if (!isCurrent()) return;
      await this.run(subject, bookingKey, response.questionnaires);
    } catch {
      if (!isCurrent()) return;
      runInAction(() => {
        this.state = 'error';
      });
    }
  }

  private async openNext(): Promise<void> {
    const isCurrent = this.runs.current();
    const next = this.queue[0];
    if (!next || this.denied) {
      runInAction(() => {
        this.current = null;
        this.state = 'done';
      });
      return;
    }
    runInAction(() => {
      this.current = null;
      this.state = 'answering';
    });
    if (next.questionnaire.type === 'BOOKING_FORM') await this.wait(BOOKING_FORM_DELAY_MS);
    if (!isCurrent()) return;
    runInAction(() => {
      this.current = next;
      this.error = null;
    });
  }

  /**
   * The survey was completed: saves the answer by type, (booking flow) processes the outcomes and
   * follows them, then opens the next questionnaire. False keeps the modal open with the error.
   */
  async submit(result: Record<string, unknown>, defaultError: string): Promise<boolean> {
    const item = this.current;
    const bookingKey = this.bookingKey;
    if (!item || !bookingKey || this.saving) return false;
    const isCurrent = this.runs.current();
    const questionnaire = item.questionnaire;
    const kind = saveKindOf(questionnaire.type, this.subject);
    this.error = null;
    this.saving = true;
    let actions: OutcomeAction[] = [];
    try {
      const body = {
        questionnaireId: questionnaire.id,
        questionnaireResult: result,
        ...(item.examSlug ? { examSlug: item.examSlug } : {}),
      };
      if (kind === 'temporary') await this.deps.api.saveTemporary({ bookingKey, ...body });
      else if (kind === 'pain-score') await this.deps.api.savePainScore(bookingKey, body);
      else if (kind === 'booking-request') await this.deps.api.saveBookingRequestAnswer(bookingKey, body);
      else {
        const saved = await this.deps.api.saveAppointmentAnswer(bookingKey, body);
        if (saved.appointmentStatus === 'CANCELED') runInAction(() => (this.cancelled = true));
      }
      if (kind === 'temporary' && this.exams.length > 0) {
        actions = outcomeActions(await this.deps.api.processOutcomes({ bookingKey, exams: this.exams }));
      }
    } catch (error) {
      // The server's wording for a refused answer (4xx); the page's own text for everything else.
      const message = refusalMessage(error) || null;
      runInAction(() => {
        this.saving = false;
        if (kind === 'pain-score') this.failure = { kind: 'pain-score', message };
        else if (questionnaire.type === 'PROTOCOL') this.failure = { kind: 'protocol', message };
        this.error = message ?? defaultError;
      });
      return false;
    }
    if (!isCurrent()) return true;
    runInAction(() => {
      this.saving = false;
      this.answeredCount += 1;
      this.queue = this.queue.filter((entry) => entry !== item);
      this.current = null;
      this.lastOutcome = completionOutcome(questionnaire.title, actions);
      for (const action of actions) {
        if (action.kind === 'deny') this.denied = { message: action.message };
        if (action.kind === 'redirect') this.redirectUrl = action.url;
      }
    });
    await this.follow(actions, item);
    if (!isCurrent()) return true;
    await this.openNext();
    return true;
  }

  /** The close control (showClose): the run stops here, unanswered. */
  close(): void {
    this.runs.cancel();
    this.current = null;
    this.closedUnanswered = true;
    this.state = 'done';
  }

  /** Forgets the run (leaving the page, a new exam choice). */
  reset(): void {
    this.runs.cancel();
    this.state = 'idle';
    this.queue = [];
    this.current = null;
    this.error = null;
    this.saving = false;
    this.denied = null;
    this.redirectUrl = null;
    this.failure = null;
    this.lastOutcome = null;
  }
}

/** The questionnaires store, built once per visit when questionnaires are first needed (RootStore.featureStore). */
export function questionnaireStoreOf(context: FeatureStoreContext): QuestionnaireStore {
  return new QuestionnaireStore({ api: createQuestionnairesApi(context.client) });
}
