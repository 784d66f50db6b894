import { makeAutoObservable, runInAction } from 'mobx';
import type { BookingApi } from '../../api/booking-api';
import type { WeekStartDay } from './booking-calendar';
import { localDate } from '../../platform/dates';
import { BookingExamChoice } from './booking-exam-choice';
import type { Locator } from './booking-locator';
import { BookingPlaceAndTime, type PlaceAndTimeRestore } from './booking-place-and-time';
import { createStepReporter, type StepReporter } from './booking-step-reporter';
import { BookingSubmission } from './booking-submission';

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
  locator: Locator;
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
 * a component talks to the API.
 */
export class BookingStore {
  step: BookingStep = 0;
  /** The page was opened with ?staffBooking=true. */
  staffBookingRequested = false;
  /** Installed by the booking page; null when moving a booking (its answers are kept). */
  questionnaireHooks: BookingQuestionnaireHooks | null = null;

  readonly examChoice: BookingExamChoice;
  readonly placeAndTime: BookingPlaceAndTime;
  readonly submission: BookingSubmission;

  private readonly deps: BookingStoreDeps;
  private readonly reporter: StepReporter;

  constructor(deps: BookingStoreDeps) {
    this.deps = deps;
    this.reporter = createStepReporter((step) => deps.reportStep(step as BookingStep), deps.stepReportDelayMs);
    const today = () => this.today;
    this.examChoice = new BookingExamChoice({
      api: deps.api,
      selectionChanged: () => this.placeAndTime.examsChanged(),
    });
    this.placeAndTime = new BookingPlaceAndTime({
      api: deps.api,
      today,
      flags: deps.flags,
      weekStart: deps.weekStart,
      locator: deps.locator,
      exams: this.examChoice,
      holdTaken: () => this.submission.forgetKey(),
    });
    this.submission = new BookingSubmission({
      api: deps.api,
      today,
      now: deps.clock,
      newIdempotencyKey: deps.newIdempotencyKey,
      loadPatientForm: deps.loadPatientForm,
      exams: this.examChoice,
      time: this.placeAndTime,
      staffBooking: () => this.staffBooking,
      booked: () => {
        // The answers now belong to the booking; the temporary key is spent.
        this.examChoice.questionnaireKey = null;
        // The slot cache resets after a successful booking.
        this.placeAndTime.booked();
        this.setStep(3);
      },
      timeTaken: () => {
        this.placeAndTime.timeTaken();
        this.setStep(1);
      },
      reloadTimes: () => this.placeAndTime.loadTimes(),
      questionnaireFailed: () => this.questionnaireHooks?.afterFailure() ?? Promise.resolve(),
    });
    makeAutoObservable<this, 'deps' | 'reporter'>(this, {
      deps: false,
      reporter: false,
      examChoice: false,
      placeAndTime: false,
      submission: false,
      questionnaireHooks: false,
    });
  }

  get today(): string {
    return localDate(this.deps.clock());
  }

  /** The flow's part of the URL query (BOOKING_QUERY_KEYS); absent keys are removed. */
  get query(): Record<(typeof BOOKING_QUERY_KEYS)[number], string | null> {
    // After the confirmation the booked time is gone from the URL: a reload starts afresh.
    const choosing = this.step === 1 || this.step === 2;
    const { selectedSlugs } = this.examChoice;
    const time = this.placeAndTime;
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
    this.placeAndTime.queryPosition =
      params.get('lat') !== null && params.get('lng') !== null && Number.isFinite(lat) && Number.isFinite(lng)
        ? { latitude: lat, longitude: lng }
        : null;
    this.staffBookingRequested = params.get('staffBooking') === 'true';
    this.placeAndTime.preferredClinic = params.get('clinic');
    // Coming back to the booking page after a confirmation starts a new booking.
    if (this.step === 3) this.startOver();
    this.reporter.stepChanged(this.step);
    await this.examChoice.loadCatalogue();
    const slugs = (params.get('exams') ?? '').split(',').filter((slug) => this.examChoice.examsBySlug.has(slug));
    if (slugs.length === 0) return;
    runInAction(() => {
      this.examChoice.restore(slugs);
      if (params.get('view') === 'MONTH') this.placeAndTime.view = 'MONTH';
    });
    if (Number(params.get('step')) >= 1) {
      const date = params.get('date');
      const time = params.get('time');
      await this.goToLocation({ clinic: params.get('clinic'), date, time });
    }
  }

  dispose(): void {
    this.reporter.dispose();
    this.placeAndTime.dispose();
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
    this.setStep(1);
    await this.placeAndTime.open(restore);
  }

  async goToDetails(): Promise<void> {
    if (!this.placeAndTime.canContinue) return;
    await this.submission.preparePatientForm();
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
    this.submission.reset();
    this.setStep(0);
  }
}
