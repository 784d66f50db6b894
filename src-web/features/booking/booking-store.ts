import { makeAutoObservable, observableRef, runInAction } from 'mobx';
import type { BookingApi } from '../../api/booking-api';
import type { WeekStartDay } from './booking-calendar';
import { localDate } from '../../platform/dates';
import { BookingExamChoice } from './booking-exam-choice';
import type { LaterSteps, PlaceRequest } from './booking-later-steps';
import type { Locator, LocatorSource } from './booking-locator';
import type { BookingPlaceAndTime, PlaceAndTimeRestore } from './booking-place-and-time';
import { createStepReporter, type StepReporter } from './booking-step-reporter';
import type { BookingResult, BookingSubmission } from './booking-submission';

export type { BookingResult } from './booking-submission';
export type { Locator, Position, PositionSource } from './booking-locator';
export type { CalendarView } from './booking-place-and-time';

/** 0 exam choice, 1 location and date, 2 patient details, 3 confirmation. */
export type BookingStep = 0 | 1 | 2 | 3;

export interface BookingStoreDeps {
  api: BookingApi;
  clock: () => Date;
  /** The provider's flags (radiology config). */
  flags: () => { mapUiEnabled: boolean; showUnableToLocateWindow: boolean; weekStartsTodayEnabled: boolean };
  /** The locale's first day of the week. */
  weekStart: () => WeekStartDay;
  /** Where the position comes from besides the link: a Locator (tests), or the browser to build one on. */
  locator: Locator | LocatorSource;
  reportStep: (step: BookingStep) => void;
  /** A fresh UUID for the Idempotency-Key header. */
  newIdempotencyKey: () => string;
  /** Loads the patient form (and the contract's validation rules with it) when step 2 opens. */
  loadPatientForm?: () => Promise<typeof import('./booking-patient-form')>;
  /** Step report debounce; the spec's 2 s unless a test says otherwise. */
  stepReportDelayMs?: number;
  /** True while staff (or an admin) are signed in: only then does ?staffBooking=true count (docs/rules/booking.md). */
  staffMayBook?: () => boolean;
}

/**
 * The questionnaires of the chosen exams. The code lives in
 * features/questionnaires/booking-questionnaires.ts and loads lazily; it installs these hooks.
 */
export interface BookingQuestionnaireHooks {
  /** Before step 1: opens the chosen exams' questionnaires; false stops here (denied, or closed). */
  beforeLocation(slugs: string[]): Promise<boolean>;
  /** A keyed booking failed: a new key is fetched and the answers re-keyed. */
  afterFailure(): Promise<void>;
}

/** The query parameters the flow keeps in the URL (so a reload or a shared link keeps the choice). */
export const BOOKING_QUERY_KEYS = ['step', 'exams', 'clinic', 'view', 'date', 'time'] as const;

/**
 * The booking flow: one store per step (exam choice; place and time; details and submission)
 * and the moves between them. Components render what is here and call its actions; nothing in
 * a component talks to the API. The stores after the exam choice load with their code
 * (booking-later-steps.ts), so the booking home's first screen does not carry them.
 */
export class BookingStore {
  step: BookingStep = 0;
  /** The page was opened with ?staffBooking=true. */
  staffBookingRequested = false;
  /** Installed by the booking page; null when moving a booking (its answers are kept). */
  questionnaireHooks: BookingQuestionnaireHooks | null = null;

  readonly examChoice: BookingExamChoice;
  /** Steps 1 to 3's stores, once loaded (loadLaterSteps): the first screen does without their code. */
  later: LaterSteps | null = null;

  private readonly deps: BookingStoreDeps;
  private readonly reporter: StepReporter;
  /** The link's position, clinic and calendar view, handed to the place and time once it exists. */
  private readonly placeRequest: PlaceRequest = { queryPosition: null, preferredClinic: null, view: 'WEEK' };
  private laterLoad: Promise<LaterSteps> | null = null;

  constructor(deps: BookingStoreDeps) {
    this.deps = deps;
    this.reporter = createStepReporter((step) => deps.reportStep(step as BookingStep), deps.stepReportDelayMs);
    this.examChoice = new BookingExamChoice({
      api: deps.api,
      selectionChanged: () => this.later?.placeAndTime.examsChanged(),
    });
    makeAutoObservable<this, 'deps' | 'reporter' | 'placeRequest' | 'laterLoad'>(this, {
      deps: false,
      reporter: false,
      placeRequest: false,
      laterLoad: false,
      examChoice: false,
      later: observableRef,
      placeAndTime: false,
      submission: false,
      questionnaireHooks: false,
      loadLaterSteps: false,
    });
  }

  /** Step 1's store; only from step 1 on (goToLocation loads it first). */
  get placeAndTime(): BookingPlaceAndTime {
    return this.loadedLaterSteps().placeAndTime;
  }

  /** Steps 2 and 3's store; only from step 1 on. */
  get submission(): BookingSubmission {
    return this.loadedLaterSteps().submission;
  }

  /** The booking made on this visit, if any. */
  get result(): BookingResult | null {
    return this.later?.submission.result ?? null;
  }

  private loadedLaterSteps(): LaterSteps {
    if (!this.later) throw new Error('The booking steps after the exam choice are not loaded yet (BookingStore.loadLaterSteps)');
    return this.later;
  }

  /**
   * Loads and builds steps 1 to 3's stores (once; a failed download may be tried again). The page
   * starts this when an exam is chosen, so the code is there before the patient continues.
   */
  loadLaterSteps(): Promise<LaterSteps> {
    if (!this.laterLoad) {
      const load = import('./booking-later-steps').then(({ createLaterSteps }) => {
        const later = createLaterSteps({
          ...this.deps,
          today: () => this.today,
          exams: this.examChoice,
          staffBooking: () => this.staffBooking,
          request: this.placeRequest,
          booked: () => {
            // The answers now belong to the booking; the temporary key is spent.
            this.examChoice.questionnaireKey = null;
            this.setStep(3);
          },
          timeTaken: () => this.setStep(1),
          questionnaireFailed: () => this.questionnaireHooks?.afterFailure() ?? Promise.resolve(),
        });
        runInAction(() => {
          this.later = later;
        });
        return later;
      });
      load.catch(() => {
        this.laterLoad = null;
      });
      this.laterLoad = load;
    }
    return this.laterLoad;
  }

  get today(): string {
    return localDate(this.deps.clock());
  }

  /** The flow's part of the URL query (BOOKING_QUERY_KEYS); absent keys are removed. */
  get query(): Record<(typeof BOOKING_QUERY_KEYS)[number], string | null> {
    // After the confirmation the booked time is gone from the URL: a reload starts afresh.
    const time = this.later?.placeAndTime;
    const choosing = (this.step === 1 || this.step === 2) && time !== undefined;
    const { selectedSlugs } = this.examChoice;
    return {
      step: choosing ? String(this.step) : null,
      exams: this.step < 3 && selectedSlugs.length > 0 ? selectedSlugs.join(',') : null,
      clinic: choosing ? time.selectedClinicSlug : null,
      view: choosing && time.view === 'MONTH' ? 'MONTH' : null,
      date: choosing ? time.selectedDate : null,
      time: choosing ? time.selectedStartsAt : null,
    };
  }

  // ------------------------------------------------------------------------------------------
  /**
   * Staff book for a patient: the texts name "the patient" and the server records who booked.
   * A patient who adds ?staffBooking=true keeps the patient flow.
   */
  get staffBooking(): boolean {
    return this.staffBookingRequested && (this.deps.staffMayBook?.() ?? false);
  }

  // Start and URL

  /**
   * Reads the page's query: lat/lng (position), staffBooking, and the flow's own keys from a
   * reload or a link. The catalogue must be loaded for exams to be restored.
   */
  async start(params: URLSearchParams): Promise<void> {
    const lat = Number(params.get('lat'));
    const lng = Number(params.get('lng'));
    this.placeRequest.queryPosition =
      params.get('lat') !== null && params.get('lng') !== null && Number.isFinite(lat) && Number.isFinite(lng)
        ? { latitude: lat, longitude: lng }
        : null;
    this.staffBookingRequested = params.get('staffBooking') === 'true';
    this.placeRequest.preferredClinic = params.get('clinic');
    if (this.later) {
      this.later.placeAndTime.queryPosition = this.placeRequest.queryPosition;
      this.later.placeAndTime.preferredClinic = this.placeRequest.preferredClinic;
    }
    // Coming back to the booking page after a confirmation starts a new booking.
    if (this.step === 3) this.startOver();
    this.reporter.stepChanged(this.step);
    await this.examChoice.loadCatalogue();
    const slugs = (params.get('exams') ?? '').split(',').filter((slug) => this.examChoice.examsBySlug.has(slug));
    if (slugs.length === 0) return;
    runInAction(() => {
      this.examChoice.restore(slugs);
      if (params.get('view') !== 'MONTH') return;
      this.placeRequest.view = 'MONTH';
      if (this.later) this.later.placeAndTime.view = 'MONTH';
    });
    if (Number(params.get('step')) >= 1) {
      const date = params.get('date');
      const time = params.get('time');
      await this.goToLocation({ clinic: params.get('clinic'), date, time });
    }
  }

  dispose(): void {
    this.reporter.dispose();
    this.later?.placeAndTime.dispose();
  }

  private setStep(step: BookingStep): void {
    if (this.step === step) return;
    this.step = step;
    this.reporter.stepChanged(step);
  }

  // ------------------------------------------------------------------------------------------
  // Moving between the steps

  /** Goes to step 1: the chosen exams' questionnaires first, then the position and the clinics. */
  async goToLocation(restore?: PlaceAndTimeRestore): Promise<void> {
    const exams = this.examChoice;
    if (exams.selectedSlugs.length === 0) return;
    if (!restore && this.questionnaireHooks && !(await this.questionnaireHooks.beforeLocation([...exams.selectedSlugs]))) return;
    const { placeAndTime } = await this.loadLaterSteps();
    runInAction(() => this.setStep(1));
    await placeAndTime.open(restore);
  }

  async goToDetails(): Promise<void> {
    const later = this.later;
    if (!later?.placeAndTime.canContinue) return;
    await later.submission.preparePatientForm();
    runInAction(() => this.setStep(2));
  }

  goBack(): void {
    if (this.step === 2) this.setStep(1);
    else if (this.step === 1) this.setStep(0);
  }

  goToExams(): void {
    this.setStep(0);
  }

  /**
   * The chosen time went to someone else (409 slot_taken): back to the times with the notice,
   * times reloaded. The reschedule step books through another call and uses this too.
   */
  async timeWasTaken(): Promise<void> {
    this.placeAndTime.timeTaken();
    this.setStep(1);
    await this.placeAndTime.loadTimes();
  }

  /**
   * Closing the server-error modal: back to the times, date and time cleared (so the URL loses
   * them too), times reloaded.
   */
  async closeFailure(): Promise<void> {
    if (!this.submission.dismissFailure()) return;
    this.placeAndTime.clearTime(true);
    this.setStep(1);
    await this.placeAndTime.loadTimes();
  }

  /** Starts a new booking from the confirmation. */
  startOver(): void {
    this.examChoice.reset();
    this.later?.submission.reset();
    this.setStep(0);
  }
}
