import { makeAutoObservable, observableRef, runInAction } from 'mobx';
import type {
  AppointmentCreateResponse,
  BookingRequestCreateResponse,
  BookingSettings,
  Catalogue,
  ClinicWithDistance,
  DaySlots,
  Exam,
  Location,
  Slot,
  WalkInExam,
} from '@contract/api/booking';
import type { BookingApi } from '../../api/booking-api';
import { ApiError } from '../../api/client';
import { addDays, addMonths, firstDayOfWeek, monthOf, type WeekStartDay } from './booking-calendar';
import { bookingFailure, isModalFailure, type BookingFailure } from './booking-errors';
import type { PatientForm } from './booking-patient-form';
import { createStepReporter, type StepReporter } from './booking-step-reporter';
import { localDate } from '../../platform/dates';
import type { LoadState } from '../../platform/load-state';

/** 0 exam choice, 1 location and date, 2 patient details, 3 confirmation (spec point 4). */
export type BookingStep = 0 | 1 | 2 | 3;
export type CalendarView = 'WEEK' | 'MONTH';
export type PositionSource = 'query' | 'kiosk' | 'browser' | 'postcode';

export interface Position extends Location {
  source: PositionSource;
}

/** Where the position comes from besides the query: the browser and the kiosk's stored postcode. */
export interface Locator {
  /** The browser's position; rejects when refused, unavailable or too slow. */
  browserPosition(): Promise<Location>;
  /** The postcode a kiosk stored in its cookie (spec: postalCodeLocationId), or null. */
  kioskPostcode(): string | null;
  /** In kiosk mode, keeps a located postcode for the next patient at this kiosk (cookie). */
  rememberKioskPostcode(postcode: string): void;
}

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
}

/**
 * The questionnaires of the chosen exams (issue 5). The code lives in
 * features/questionnaires/booking-questionnaires.ts and loads lazily; it installs these hooks.
 */
export interface BookingQuestionnaireHooks {
  /** Before step 1: opens the chosen exams' questionnaires; false stops here (denied, or closed). */
  beforeLocation(slugs: string[]): Promise<boolean>;
  /** A keyed booking failed: a new key is fetched and the answers re-keyed. */
  afterFailure(): Promise<void>;
}

export type BookingResult =
  { kind: 'appointment'; response: AppointmentCreateResponse } | { kind: 'request'; response: BookingRequestCreateResponse };

/** The query parameters the flow keeps in the URL (so a reload or a shared link keeps the choice). */
export const BOOKING_QUERY_KEYS = ['step', 'exams', 'clinic', 'view', 'date', 'time'] as const;

const WEEK_DAYS = 7;

/**
 * The booking flow's state and every API call it makes (issue 3). Components render what is
 * here and call its actions; nothing in a component talks to the API.
 */
export class BookingStore {
  step: BookingStep = 0;
  staffBooking = false;

  // Step 0: exams
  catalogue: Catalogue | null = null;
  catalogueState: LoadState = 'idle';
  search = '';
  modalityFilter: string | null = null;
  bodyPartFilter: string | null = null;
  selectedSlugs: string[] = [];
  /** The exam whose details dialog is open. */
  infoExamSlug: string | null = null;
  /** The booking-request information dialog (exam flag showBookingRequestInfoModal). */
  requestInfoOpen = false;
  walkInOpen = false;
  walkInOptions: WalkInExam[] = [];
  walkInState: LoadState = 'idle';
  walkInExam: WalkInExam | null = null;
  /** The modality combination the walk-in dialog was last shown for, so it opens once per combination. */
  private walkInAskedFor = '';

  // Step 1: location, clinics, calendar
  settings: BookingSettings | null = null;
  queryPosition: Location | null = null;
  position: Position | null = null;
  locating = false;
  unableToLocateOpen = false;
  postcodeLocatorOpen = false;
  postcodeState: LoadState = 'idle';
  postcodeProblem: 'invalid' | 'unknown' | null = null;
  clinics: ClinicWithDistance[] = [];
  clinicsState: LoadState = 'idle';
  usedDefaultLocation = false;
  selectedClinicSlug: string | null = null;
  /** A clinic named by the link (?clinic=): chosen as soon as it is listed. */
  preferredClinic: string | null = null;
  view: CalendarView = 'WEEK';
  /** First day shown in the week view. */
  weekFrom: string;
  /** Month shown in the month view (YYYY-MM). */
  month: string;
  monthDays: { date: string; available: boolean }[] = [];
  monthState: LoadState = 'idle';
  days: DaySlots[] = [];
  daysState: LoadState = 'idle';
  selectedDate: string | null = null;
  selectedStartsAt: string | null = null;
  hold: { holdId: string; expiresAt: string; startsAt: string } | null = null;
  holdState: LoadState = 'idle';
  /** Shown above the times after a 409: the time was taken meanwhile. */
  slotTaken = false;

  // Step 2: details and submission
  patientForm: PatientForm | null = null;
  submitting = false;
  failure: BookingFailure | null = null;
  private idempotencyKey: string | null = null;

  // Step 3
  result: BookingResult | null = null;

  // Questionnaires (issue 5): set by their outcomes.
  questionnaireHooks: BookingQuestionnaireHooks | null = null;
  /** The temporary key the answers are saved under; the booking call names it. */
  questionnaireKey: string | null = null;
  questionnaireMedicareRequired = false;
  questionnaireBookingRequest = false;
  questionnaireValidationCodeRequired = false;
  /** Why the answers turned the booking into a booking request (the provider's message), or null. */
  questionnaireRequestMessage: string | null = null;
  /** The document an outcome asked the patient to bring (shown with the details and the confirmation). */
  questionnaireDocument: { title: string; description: string } | null = null;

  private readonly deps: BookingStoreDeps;
  private readonly reporter: StepReporter;
  private availabilityAbort: AbortController | null = null;
  private clinicsAbort: AbortController | null = null;

  constructor(deps: BookingStoreDeps) {
    this.deps = deps;
    this.reporter = createStepReporter((step) => deps.reportStep(step as BookingStep), deps.stepReportDelayMs);
    this.weekFrom = this.firstWeekDay;
    this.month = monthOf(this.today);
    makeAutoObservable<this, 'deps' | 'reporter' | 'availabilityAbort' | 'clinicsAbort' | 'idempotencyKey' | 'walkInAskedFor'>(this, {
      deps: false,
      reporter: false,
      availabilityAbort: false,
      clinicsAbort: false,
      idempotencyKey: false,
      walkInAskedFor: false,
      catalogue: observableRef,
      settings: observableRef,
      result: observableRef,
      patientForm: observableRef,
      questionnaireHooks: false,
    });
  }

  // ------------------------------------------------------------------------------------------
  // Derived state

  get today(): string {
    return localDate(this.deps.clock());
  }

  get firstWeekDay(): string {
    return firstDayOfWeek(this.today, this.deps.flags().weekStartsTodayEnabled, this.deps.weekStart());
  }

  get examsBySlug(): Map<string, Exam> {
    return new Map((this.catalogue?.exams ?? []).map((exam) => [exam.slug, exam]));
  }

  get selectedExams(): Exam[] {
    const bySlug = this.examsBySlug;
    return this.selectedSlugs.flatMap((slug) => bySlug.get(slug) ?? []);
  }

  /** Exams matching the search text, or else the chosen modality and body part; by priority. */
  get visibleExams(): Exam[] {
    const exams = this.catalogue?.exams ?? [];
    const search = this.search.trim().toLowerCase();
    const matches = search
      ? exams.filter((exam) => exam.name.toLowerCase().includes(search) || exam.modalityName.toLowerCase().includes(search))
      : exams.filter(
          (exam) =>
            (this.modalityFilter === null || exam.modalityId === this.modalityFilter) &&
            (this.bodyPartFilter === null || exam.bodyPartSlugs.includes(this.bodyPartFilter)),
        );
    // Plain comparison, not localeCompare: that builds a collator per call and made this sort
    // one of the costliest lines of the first screen on a throttled phone.
    return [...matches].sort((a, b) => a.priority - b.priority || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  get filtersActive(): boolean {
    return this.search.trim() !== '' || this.modalityFilter !== null || this.bodyPartFilter !== null;
  }

  /** Body parts that have an exam in the chosen modality (all when no modality is chosen). */
  get availableBodyParts(): Set<string> {
    const exams = (this.catalogue?.exams ?? []).filter((exam) => this.modalityFilter === null || exam.modalityId === this.modalityFilter);
    return new Set(exams.flatMap((exam) => exam.bodyPartSlugs));
  }

  /** Any enquiry-only exam turns the booking into a booking request (no time is chosen). */
  get isBookingRequest(): boolean {
    return this.questionnaireBookingRequest || this.selectedExams.some((exam) => exam.enquiryOnly);
  }

  /** Spec point 4: two or more exams of differing modalities. */
  get needsWalkIn(): boolean {
    return this.distinctModalities.length >= 2;
  }

  get distinctModalities(): string[] {
    return [...new Set(this.selectedExams.map((exam) => exam.modalityId))];
  }

  /**
   * The exams that get the appointment time: those of the first chosen exam's modality. Exams
   * of other modalities cannot share one time (the server refuses it); they are done as the
   * walk-in exam recorded in the walk-in dialog.
   */
  get bookedSlugs(): string[] {
    const primary = this.selectedExams[0]?.modalityId;
    return this.selectedExams.filter((exam) => exam.modalityId === primary).map((exam) => exam.slug);
  }

  get medicareRequired(): boolean {
    return this.questionnaireMedicareRequired || this.selectedExams.some((exam) => exam.medicareRequired);
  }

  get infoExam(): Exam | null {
    return this.infoExamSlug ? (this.examsBySlug.get(this.infoExamSlug) ?? null) : null;
  }

  get selectedClinic(): ClinicWithDistance | null {
    return this.clinics.find((entry) => entry.clinic.slug === this.selectedClinicSlug) ?? null;
  }

  get selectedDay(): DaySlots | null {
    return this.days.find((day) => day.date === this.selectedDate) ?? null;
  }

  get selectedSlot(): Slot | null {
    for (const day of this.days) {
      const slot = day.slots.find((candidate) => candidate.startsAt === this.selectedStartsAt);
      if (slot) return slot;
    }
    return null;
  }

  get weekDays(): string[] {
    return Array.from({ length: WEEK_DAYS }, (_, index) => addDays(this.weekFrom, index));
  }

  get canGoToPreviousWeek(): boolean {
    return this.weekFrom > this.firstWeekDay;
  }

  get canGoToNextWeek(): boolean {
    const horizon = this.settings?.horizonDays;
    return horizon === undefined || addDays(this.weekFrom, WEEK_DAYS) <= addDays(this.today, horizon);
  }

  get canGoToPreviousMonth(): boolean {
    return this.month > monthOf(this.today);
  }

  get canGoToNextMonth(): boolean {
    const horizon = this.settings?.horizonDays;
    return horizon === undefined || addMonths(this.month, 1) <= monthOf(addDays(this.today, horizon));
  }

  get canContinueFromExams(): boolean {
    return this.selectedSlugs.length > 0 && !this.walkInOpen;
  }

  get canContinueFromLocation(): boolean {
    if (this.isBookingRequest) return this.clinicsState === 'loaded';
    return this.hold !== null && this.hold.startsAt === this.selectedStartsAt && this.holdState === 'loaded';
  }

  /** The flow's part of the URL query (BOOKING_QUERY_KEYS); absent keys are removed. */
  get query(): Record<(typeof BOOKING_QUERY_KEYS)[number], string | null> {
    // After the confirmation the booked time is gone from the URL: a reload starts afresh.
    const choosing = this.step === 1 || this.step === 2;
    return {
      step: choosing ? String(this.step) : null,
      exams: this.step < 3 && this.selectedSlugs.length > 0 ? this.selectedSlugs.join(',') : null,
      clinic: choosing ? this.selectedClinicSlug : null,
      view: choosing && this.view === 'MONTH' ? 'MONTH' : null,
      date: choosing ? this.selectedDate : null,
      time: choosing ? this.selectedStartsAt : null,
    };
  }

  // ------------------------------------------------------------------------------------------
  // Start and URL

  /**
   * Reads the page's query: lat/lng (position), staffBooking, and the flow's own keys from a
   * reload or a link. The catalogue must be loaded for exams to be restored.
   */
  async start(params: URLSearchParams): Promise<void> {
    const lat = Number(params.get('lat'));
    const lng = Number(params.get('lng'));
    this.queryPosition =
      params.get('lat') !== null && params.get('lng') !== null && Number.isFinite(lat) && Number.isFinite(lng)
        ? { latitude: lat, longitude: lng }
        : null;
    this.staffBooking = params.get('staffBooking') === 'true';
    this.preferredClinic = params.get('clinic');
    // Coming back to the booking page after a confirmation starts a new booking.
    if (this.step === 3) this.startOver();
    this.reporter.stepChanged(this.step);
    await this.loadCatalogue();
    const slugs = (params.get('exams') ?? '').split(',').filter((slug) => this.examsBySlug.has(slug));
    if (slugs.length === 0) return;
    runInAction(() => {
      this.selectedSlugs = [...new Set(slugs)];
      // A restored mixed-modality choice was already seen by the patient.
      this.walkInAskedFor = this.distinctModalities.join(',');
      if (params.get('view') === 'MONTH') this.view = 'MONTH';
    });
    if (Number(params.get('step')) >= 1) {
      const date = params.get('date');
      const time = params.get('time');
      await this.goToLocation({ clinic: params.get('clinic'), date, time });
    }
  }

  dispose(): void {
    this.reporter.dispose();
    this.availabilityAbort?.abort();
    this.clinicsAbort?.abort();
  }

  private setStep(step: BookingStep): void {
    if (this.step === step) return;
    this.step = step;
    this.reporter.stepChanged(step);
  }

  // ------------------------------------------------------------------------------------------
  // Step 0: exams

  async loadCatalogue(): Promise<void> {
    if (this.catalogueState === 'loaded' || this.catalogueState === 'loading') return;
    this.catalogueState = 'loading';
    try {
      const catalogue = await this.deps.api.catalogue();
      runInAction(() => {
        this.catalogue = catalogue;
        this.catalogueState = 'loaded';
      });
    } catch {
      runInAction(() => {
        this.catalogueState = 'error';
      });
    }
  }

  setSearch(search: string): void {
    this.search = search;
  }

  /** Chooses a modality (null for all); a body part without exams in it is cleared. */
  setModality(modalityId: string | null): void {
    this.modalityFilter = modalityId;
    if (this.bodyPartFilter !== null && !this.availableBodyParts.has(this.bodyPartFilter)) this.bodyPartFilter = null;
  }

  /** Chooses a body part; choosing the chosen one again clears it. */
  toggleBodyPart(slug: string): void {
    this.bodyPartFilter = this.bodyPartFilter === slug ? null : slug;
  }

  clearFilters(): void {
    this.search = '';
    this.modalityFilter = null;
    this.bodyPartFilter = null;
  }

  isSelected(slug: string): boolean {
    return this.selectedSlugs.includes(slug);
  }

  toggleExam(slug: string): void {
    const exam = this.examsBySlug.get(slug);
    if (!exam) return;
    if (this.isSelected(slug)) {
      this.selectedSlugs = this.selectedSlugs.filter((chosen) => chosen !== slug);
      if (!this.needsWalkIn) this.walkInExam = null;
    } else {
      this.selectedSlugs = [...this.selectedSlugs, slug];
      if (exam.showBookingRequestInfoModal) this.requestInfoOpen = true;
    }
    this.selectionChanged();
  }

  /** A new exam choice invalidates clinics, times and any hold. */
  private selectionChanged(): void {
    this.clinics = [];
    this.clinicsState = 'idle';
    this.selectedClinicSlug = null;
    this.clearTime(true);
    const combination = this.distinctModalities.join(',');
    if (this.needsWalkIn && combination !== this.walkInAskedFor) {
      this.walkInAskedFor = combination;
      void this.openWalkIn();
    }
  }

  async openWalkIn(): Promise<void> {
    this.walkInOpen = true;
    this.walkInState = 'loading';
    // Walk-in exams are of the other modalities than the first chosen exam's (the booked one).
    const [, ...others] = this.distinctModalities;
    try {
      const lists = await Promise.all(others.map((modality) => this.deps.api.walkInExams(modality)));
      const unique = new Map(lists.flat().map((walkIn) => [walkIn.name, walkIn]));
      runInAction(() => {
        this.walkInOptions = [...unique.values()];
        this.walkInState = 'loaded';
      });
    } catch {
      runInAction(() => {
        this.walkInOptions = [];
        this.walkInState = 'error';
      });
    }
  }

  /**
   * Records the walk-in exam and closes the dialog. Null means no walk-in: the exams of the other
   * modalities leave this booking (the patient books them separately).
   */
  chooseWalkIn(walkIn: WalkInExam | null): void {
    this.walkInExam = walkIn;
    this.walkInOpen = false;
    if (walkIn === null) this.selectedSlugs = this.bookedSlugs;
  }

  showExamInfo(slug: string | null): void {
    this.infoExamSlug = slug;
  }

  closeRequestInfo(): void {
    this.requestInfoOpen = false;
  }

  // ------------------------------------------------------------------------------------------
  // Step 1: location, clinics and times

  /** Goes to step 1: finds the position, then the clinics offering every chosen exam. */
  async goToLocation(restore?: { clinic: string | null; date: string | null; time: string | null }): Promise<void> {
    if (this.selectedSlugs.length === 0) return;
    if (!restore && this.questionnaireHooks && !(await this.questionnaireHooks.beforeLocation([...this.selectedSlugs]))) return;
    this.setStep(1);
    this.slotTaken = false;
    void this.loadSettings();
    if (this.clinicsState !== 'loaded') await this.locate();
    const clinic = restore?.clinic ?? (this.selectedClinicSlug === null ? this.preferredClinic : null);
    if (clinic && this.clinics.some((entry) => entry.clinic.slug === clinic)) {
      await this.selectClinic(clinic, restore?.date ?? undefined);
      if (restore?.time && restore.date) {
        const slot = this.days.find((day) => day.date === restore.date)?.slots.find((candidate) => candidate.startsAt === restore.time);
        if (slot) await this.pickTime(restore.date, slot);
      }
    }
  }

  async loadSettings(): Promise<void> {
    if (this.settings) return;
    try {
      const settings = await this.deps.api.settings();
      runInAction(() => {
        this.settings = settings;
      });
    } catch {
      // Settings only bound the calendar's paging; the flow works without them.
    }
  }

  /**
   * The position, in the spec's order: query lat/lng, the kiosk's postcode, the browser. When
   * none works the clinics are listed from the default location, and the unable-to-locate
   * window offers the postcode locator when the provider enabled it.
   */
  async locate(): Promise<void> {
    if (this.queryPosition) return this.usePosition({ ...this.queryPosition, source: 'query' });
    const kioskPostcode = this.deps.locator.kioskPostcode();
    if (kioskPostcode) {
      try {
        const found = await this.deps.api.postcode(kioskPostcode);
        return await this.usePosition({ latitude: found.latitude, longitude: found.longitude, source: 'kiosk' });
      } catch {
        // fall through to the browser
      }
    }
    this.locating = true;
    try {
      const browser = await this.deps.locator.browserPosition();
      runInAction(() => {
        this.locating = false;
      });
      return await this.usePosition({ ...browser, source: 'browser' });
    } catch {
      runInAction(() => {
        this.locating = false;
        if (this.deps.flags().showUnableToLocateWindow) this.unableToLocateOpen = true;
      });
      await this.loadClinics();
    }
  }

  async usePosition(position: Position): Promise<void> {
    this.position = position;
    await this.loadClinics();
  }

  openPostcodeLocator(): void {
    this.unableToLocateOpen = false;
    this.postcodeLocatorOpen = true;
    this.postcodeProblem = null;
  }

  closePostcodeLocator(): void {
    this.postcodeLocatorOpen = false;
  }

  closeUnableToLocate(): void {
    this.unableToLocateOpen = false;
  }

  /** The postcode locator: a 4-digit postcode becomes the position. */
  async locatePostcode(postcode: string): Promise<boolean> {
    const code = postcode.trim();
    if (!/^\d{4}$/.test(code)) {
      this.postcodeProblem = 'invalid';
      return false;
    }
    this.postcodeState = 'loading';
    this.postcodeProblem = null;
    try {
      const found = await this.deps.api.postcode(code);
      this.deps.locator.rememberKioskPostcode(code);
      runInAction(() => {
        this.postcodeState = 'loaded';
        this.postcodeLocatorOpen = false;
      });
      await this.usePosition({ latitude: found.latitude, longitude: found.longitude, source: 'postcode' });
      return true;
    } catch (error) {
      runInAction(() => {
        this.postcodeState = 'error';
        this.postcodeProblem = error instanceof ApiError && error.status === 404 ? 'unknown' : 'invalid';
      });
      return false;
    }
  }

  /** Asks the browser again (the "use my location" button). */
  async useBrowserLocation(): Promise<void> {
    this.queryPosition = null;
    this.unableToLocateOpen = false;
    this.locating = true;
    try {
      const browser = await this.deps.locator.browserPosition();
      runInAction(() => {
        this.locating = false;
      });
      await this.usePosition({ ...browser, source: 'browser' });
    } catch {
      runInAction(() => {
        this.locating = false;
        this.unableToLocateOpen = this.deps.flags().showUnableToLocateWindow;
      });
    }
  }

  async loadClinics(): Promise<void> {
    this.clinicsAbort?.abort();
    const abort = new AbortController();
    this.clinicsAbort = abort;
    this.clinicsState = 'loading';
    try {
      const response = await this.deps.api.clinics(
        { exams: this.selectedSlugs, latitude: this.position?.latitude, longitude: this.position?.longitude },
        abort.signal,
      );
      runInAction(() => {
        this.clinics = response.clinics;
        this.usedDefaultLocation = response.origin.usedDefault;
        this.clinicsState = 'loaded';
        if (this.selectedClinicSlug && !this.clinics.some((entry) => entry.clinic.slug === this.selectedClinicSlug)) {
          this.selectedClinicSlug = null;
          this.clearTime(true);
        }
      });
    } catch (error) {
      if (error instanceof ApiError && error.kind === 'canceled') return;
      runInAction(() => {
        this.clinicsState = 'error';
      });
    }
  }

  /**
   * Chooses a clinic and shows its times: the week (or month) of its next free time, or of
   * `date` when restoring from the URL.
   */
  async selectClinic(slug: string, date?: string): Promise<void> {
    const entry = this.clinics.find((candidate) => candidate.clinic.slug === slug);
    if (!entry) return;
    this.selectedClinicSlug = slug;
    this.clearTime(true);
    if (this.isBookingRequest) return;
    const target = date ?? (entry.nextAvailable ? localDate(new Date(entry.nextAvailable), entry.clinic.timeZone) : null);
    this.weekFrom = this.firstWeekDay;
    this.month = monthOf(this.today);
    if (target && target >= this.today) {
      const offset = Math.floor((Date.parse(target) - Date.parse(this.firstWeekDay)) / (WEEK_DAYS * 86_400_000));
      this.weekFrom = addDays(this.firstWeekDay, Math.max(0, offset) * WEEK_DAYS);
      this.month = monthOf(target);
    }
    if (date) this.selectedDate = date;
    await this.loadTimes(true);
  }

  /** WEEK or MONTH; the spec resets the chosen date and time on every toggle. */
  async setView(view: CalendarView): Promise<void> {
    if (this.view === view) return;
    this.view = view;
    this.clearTime(true);
    await this.loadTimes();
  }

  async moveWeek(direction: 1 | -1): Promise<void> {
    if (direction === -1 && !this.canGoToPreviousWeek) return;
    if (direction === 1 && !this.canGoToNextWeek) return;
    this.weekFrom = addDays(this.weekFrom, direction * WEEK_DAYS);
    await this.loadTimes(true);
  }

  async moveMonth(direction: 1 | -1): Promise<void> {
    if (direction === -1 && !this.canGoToPreviousMonth) return;
    if (direction === 1 && !this.canGoToNextMonth) return;
    this.month = addMonths(this.month, direction);
    this.clearTime(true);
    await this.loadTimes();
  }

  /** Shows the free times of one day (a different day lets go of a chosen time). */
  async selectDate(date: string): Promise<void> {
    if (this.selectedDate === date) return;
    this.selectedDate = date;
    this.clearTime(false);
    if (this.view === 'MONTH') await this.loadDays(date, 1);
  }

  /**
   * Loads what the current view shows for the chosen clinic.
   * @param showFirstFreeDay - in the week view, open the first day with a free time unless the
   *   chosen day is in this week (not after a view toggle, which resets the date).
   */
  async loadTimes(showFirstFreeDay = false): Promise<void> {
    if (!this.selectedClinicSlug || this.isBookingRequest) return;
    if (this.view === 'WEEK') {
      await this.loadDays(this.weekFrom, WEEK_DAYS);
      runInAction(() => {
        if (showFirstFreeDay && !this.days.some((day) => day.date === this.selectedDate)) {
          this.selectedDate = this.days.find((day) => day.slots.length > 0)?.date ?? null;
        }
      });
      return;
    }
    await Promise.all([this.loadMonth(), this.selectedDate ? this.loadDays(this.selectedDate, 1) : Promise.resolve()]);
  }

  private async loadDays(from: string, days: number): Promise<void> {
    const clinic = this.selectedClinicSlug;
    if (!clinic) return;
    this.availabilityAbort?.abort();
    const abort = new AbortController();
    this.availabilityAbort = abort;
    this.daysState = 'loading';
    try {
      const response = await this.deps.api.availability({ exams: this.bookedSlugs, clinics: [clinic], from, days }, abort.signal);
      runInAction(() => {
        this.days = response.clinics.find((entry) => entry.clinicSlug === clinic)?.days ?? [];
        this.daysState = 'loaded';
      });
    } catch (error) {
      if (error instanceof ApiError && error.kind === 'canceled') return;
      runInAction(() => {
        this.days = [];
        this.daysState = 'error';
      });
    }
  }

  private async loadMonth(): Promise<void> {
    const clinic = this.selectedClinicSlug;
    if (!clinic) return;
    this.monthState = 'loading';
    try {
      const response = await this.deps.api.month({ exams: this.bookedSlugs, clinics: [clinic], month: this.month });
      runInAction(() => {
        this.monthDays = response.days;
        this.monthState = 'loaded';
      });
    } catch {
      runInAction(() => {
        this.monthDays = [];
        this.monthState = 'error';
      });
    }
  }

  /** Picks a time and holds it while the patient enters details; a taken time says so and reloads. */
  async pickTime(date: string, slot: Slot): Promise<void> {
    const clinic = this.selectedClinicSlug;
    if (!clinic) return;
    this.releaseHold();
    this.selectedDate = date;
    this.selectedStartsAt = slot.startsAt;
    this.slotTaken = false;
    this.holdState = 'loading';
    try {
      const hold = await this.deps.api.hold({ exams: this.bookedSlugs, clinicSlug: clinic, startsAt: slot.startsAt });
      runInAction(() => {
        if (this.selectedStartsAt !== slot.startsAt) {
          // The patient picked another time meanwhile; this hold is not wanted.
          void this.deps.api.releaseHold(hold.holdId).catch(() => undefined);
          return;
        }
        this.hold = { ...hold, startsAt: slot.startsAt };
        this.holdState = 'loaded';
        this.idempotencyKey = null;
      });
    } catch (error) {
      const failure = bookingFailure(error);
      runInAction(() => {
        this.holdState = 'error';
        if (failure.kind === 'slot_taken') {
          this.slotTaken = true;
          this.selectedStartsAt = null;
        }
      });
      if (failure.kind === 'slot_taken') await this.loadTimes();
    }
  }

  /** Clears the chosen time (and the date unless keepDate is false), releasing any hold. */
  private clearTime(clearDate: boolean): void {
    this.releaseHold();
    this.selectedStartsAt = null;
    this.holdState = 'idle';
    if (clearDate) this.selectedDate = null;
  }

  /** The hold became an appointment elsewhere (a reschedule took its place): forget it, nothing to release. */
  forgetHold(): void {
    this.hold = null;
    this.holdState = 'idle';
  }

  private releaseHold(): void {
    const hold = this.hold;
    this.hold = null;
    if (hold) void this.deps.api.releaseHold(hold.holdId).catch(() => undefined);
  }

  // ------------------------------------------------------------------------------------------
  // Step 2: details and submission

  async goToDetails(): Promise<void> {
    if (!this.canContinueFromLocation) return;
    this.failure = null;
    const form0 = this.patientForm;
    if (
      !form0 ||
      form0.medicareRequired !== this.medicareRequired ||
      form0.validationCodeRequired !== this.questionnaireValidationCodeRequired
    ) {
      const load = this.deps.loadPatientForm ?? (() => import('./booking-patient-form'));
      const { PatientForm } = await load();
      const form = new PatientForm(this.medicareRequired, () => this.today, this.questionnaireValidationCodeRequired);
      if (this.patientForm) Object.assign(form.values, this.patientForm.values);
      runInAction(() => {
        this.patientForm = form;
      });
    }
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
   * Submits the details. Fields are checked first (nothing is sent while one is wrong). One
   * Idempotency-Key is used for every retry of the same booking, so a retry creates nothing twice.
   * @returns true when the booking (or booking request) was made.
   */
  async submit(): Promise<boolean> {
    const form = this.patientForm;
    if (!form || this.submitting) return false;
    form.touchAll();
    if (!form.isValid) return false;
    this.submitting = true;
    this.failure = null;
    this.idempotencyKey ??= this.deps.newIdempotencyKey();
    const key = this.idempotencyKey;
    try {
      const result = this.isBookingRequest ? await this.submitRequest(key, form) : await this.submitAppointment(key, form);
      runInAction(() => {
        this.result = result;
        this.submitting = false;
        this.hold = null;
        this.idempotencyKey = null;
        // The answers now belong to the booking; the temporary key is spent.
        this.questionnaireKey = null;
        // The slot cache resets after a successful booking (spec point 4).
        this.days = [];
        this.monthDays = [];
        this.clinicsState = 'idle';
        this.setStep(3);
      });
      return true;
    } catch (error) {
      const failure = bookingFailure(error);
      runInAction(() => {
        this.submitting = false;
        this.failure = failure;
        // Only an answered refusal ends this attempt; a lost answer is retried with the same key.
        if (failure.kind !== 'general') this.idempotencyKey = null;
        if (failure.kind === 'slot_taken') {
          this.hold = null;
          this.selectedStartsAt = null;
          this.holdState = 'idle';
          this.slotTaken = true;
          this.setStep(1);
        }
      });
      if (failure.kind !== 'general' && this.questionnaireKey) await this.questionnaireHooks?.afterFailure().catch(() => undefined);
      if (failure.kind === 'slot_taken') await this.loadTimes();
      return false;
    }
  }

  /**
   * The chosen time went to someone else (409 slot_taken): back to the times with the notice,
   * times reloaded. The reschedule step (issue 4) books through another call and uses this too.
   */
  async timeWasTaken(): Promise<void> {
    this.hold = null;
    this.selectedStartsAt = null;
    this.holdState = 'idle';
    this.slotTaken = true;
    this.setStep(1);
    await this.loadTimes();
  }

  private async submitAppointment(key: string, form: PatientForm): Promise<BookingResult> {
    const clinic = this.selectedClinicSlug;
    const startsAt = this.selectedStartsAt;
    if (!clinic || !startsAt) throw new Error('no time chosen');
    const response = await this.deps.api.createAppointments(
      {
        holdId: this.hold?.holdId,
        exams: this.bookedSlugs,
        clinicSlug: clinic,
        startsAt,
        patient: form.toPatientDetails(),
        ...(this.walkInExam ? { walkInExam: this.walkInExam } : {}),
        ...(this.staffBooking ? { staffBooking: true } : {}),
        ...(this.questionnaireKey ? { questionnaireKey: this.questionnaireKey } : {}),
        ...(form.validationCode ? { validationCode: form.validationCode } : {}),
      },
      key,
    );
    return { kind: 'appointment', response };
  }

  /** Enquiry exams: success when at least one request was created, else the first error (spec point 4). */
  private async submitRequest(key: string, form: PatientForm): Promise<BookingResult> {
    const notes = form.patientNotes.trim();
    const response = await this.deps.api.createBookingRequests(
      {
        exams: this.selectedSlugs,
        ...(this.selectedClinicSlug ? { clinicSlug: this.selectedClinicSlug } : {}),
        patient: form.toPatientDetails(),
        ...(notes ? { patientNotes: notes } : {}),
        ...(this.questionnaireKey ? { questionnaireKey: this.questionnaireKey } : {}),
        ...(form.validationCode ? { validationCode: form.validationCode } : {}),
      },
      key,
    );
    if (!response.results.some((result) => result.success)) {
      const message = response.results.find((result) => result.errorMessage)?.errorMessage ?? '';
      throw new ApiError('http', 422, 'bad_request', message);
    }
    return { kind: 'request', response };
  }

  get modalFailure(): BookingFailure | null {
    return this.failure && isModalFailure(this.failure) ? this.failure : null;
  }

  /**
   * Closing the server-error modal (spec point 8): back to the times, date and time cleared
   * (so the URL loses them too), times reloaded.
   */
  async closeFailure(): Promise<void> {
    const modal = this.modalFailure !== null;
    this.failure = null;
    if (!modal) return;
    this.clearTime(true);
    this.setStep(1);
    await this.loadTimes();
  }

  /** Starts a new booking from the confirmation. */
  startOver(): void {
    this.questionnaireMedicareRequired = false;
    this.questionnaireBookingRequest = false;
    this.questionnaireValidationCodeRequired = false;
    this.questionnaireDocument = null;
    this.questionnaireRequestMessage = null;
    this.selectedSlugs = [];
    this.walkInExam = null;
    this.walkInAskedFor = '';
    this.result = null;
    this.failure = null;
    this.selectionChanged();
    this.clearFilters();
    this.setStep(0);
  }
}
