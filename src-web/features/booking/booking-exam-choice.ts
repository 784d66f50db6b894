import { makeAutoObservable, observableRef, runInAction } from 'mobx';
import type { Catalogue, Exam, WalkInExam } from '@contract/api/booking';
import type { BookingApi } from '../../api/booking-api';
import type { LoadState } from '../../platform/load-state';
import type { ExamSearch } from '@contract/search/exam-search';

export interface ExamChoiceDeps {
  api: Pick<BookingApi, 'catalogue' | 'walkInExams'>;
  /** A new choice of exams: the clinics, times and any hold no longer fit it. */
  selectionChanged: () => void;
}

/**
 * Step 0 of the booking flow: the catalogue, its search and filters (the body figure), the
 * chosen exams with their walk-in exam, and what the chosen exams' questionnaires asked for.
 */
export class BookingExamChoice {
  catalogue: Catalogue | null = null;
  catalogueState: LoadState = 'idle';
  search = '';
  /** The word search over the catalogue, built lazily (MiniSearch stays out of the first chunk). */
  searchIndex: ExamSearch | null = null;
  searchIndexState: LoadState = 'idle';
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

  // Questionnaires: set by their outcomes.
  /** The temporary key the answers are saved under; the booking call names it. */
  questionnaireKey: string | null = null;
  questionnaireMedicareRequired = false;
  questionnaireBookingRequest = false;
  questionnaireValidationCodeRequired = false;
  /** Why the answers turned the booking into a booking request (the provider's message), or null. */
  questionnaireRequestMessage: string | null = null;
  /** The document an outcome asked the patient to bring (shown with the details and the confirmation). */
  questionnaireDocument: { title: string; description: string } | null = null;

  private readonly deps: ExamChoiceDeps;
  /** The catalogue request in flight, so a second caller waits for it instead of going on without it. */
  private catalogueLoad: Promise<void> | null = null;

  constructor(deps: ExamChoiceDeps) {
    this.deps = deps;
    makeAutoObservable<this, 'deps' | 'walkInAskedFor' | 'catalogueLoad'>(this, {
      deps: false,
      walkInAskedFor: false,
      catalogueLoad: false,
      catalogue: observableRef,
      searchIndex: observableRef,
    });
  }

  // ------------------------------------------------------------------------------------------
  // Derived state

  get examsBySlug(): Map<string, Exam> {
    return new Map((this.catalogue?.exams ?? []).map((exam) => [exam.slug, exam]));
  }

  get selectedExams(): Exam[] {
    const bySlug = this.examsBySlug;
    return this.selectedSlugs.flatMap((slug) => bySlug.get(slug) ?? []);
  }

  /** The search text as typed, trimmed; empty when the patient is not searching. */
  get searchText(): string {
    return this.search.trim();
  }

  /**
   * Exams for the search text, or else for the chosen modality and body part. The search ranks by
   * relevance, then priority (exam-search.ts); until its index has loaded, every typed word must
   * appear in the exam's name, modality or search terms.
   */
  get visibleExams(): Exam[] {
    const search = this.searchText;
    if (search !== '' && this.searchIndex !== null) {
      const found = this.searchIndex.search(search);
      // null: only small words ("the scan"), which narrow nothing.
      if (found !== null) return found;
    } else if (search !== '') {
      return this.sortByPriority(this.substringMatches(search));
    }
    const exams = this.catalogue?.exams ?? [];
    return this.sortByPriority(
      exams.filter(
        (exam) =>
          (this.modalityFilter === null || exam.modalityId === this.modalityFilter) &&
          (this.bodyPartFilter === null || exam.bodyPartSlugs.includes(this.bodyPartFilter)),
      ),
    );
  }

  private substringMatches(search: string): Exam[] {
    const words = search.toLowerCase().split(/\s+/);
    return (this.catalogue?.exams ?? []).filter((exam) => {
      const text = [exam.name, exam.modalityName, ...(exam.searchTerms ?? [])].join(' ').toLowerCase();
      return words.every((word) => text.includes(word));
    });
  }

  private sortByPriority(exams: Exam[]): Exam[] {
    // Plain comparison, not localeCompare: that builds a collator per call and made this sort
    // one of the costliest lines of the first screen on a throttled phone.
    return [...exams].sort((a, b) => a.priority - b.priority || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
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

  /** Two or more exams of differing modalities. */
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

  /** A dialog of the step is open (exam information, booking-request information, walk-in choice). */
  get dialogOpen(): boolean {
    return this.infoExam !== null || this.requestInfoOpen || this.walkInOpen;
  }

  /** The patient may go on to the place and time. */
  get canContinue(): boolean {
    return this.selectedSlugs.length > 0 && !this.walkInOpen;
  }

  // ------------------------------------------------------------------------------------------
  // Actions

  /**
   * Loads the catalogue once. The page's start prefetches it (src-web/start.tsx) while the booking
   * store restores exams from the URL: both must see the same load finish, or the restore finds no
   * exam and a reload of step 1 falls back to step 0.
   */
  loadCatalogue(): Promise<void> {
    if (this.catalogueState === 'loaded') return Promise.resolve();
    if (this.catalogueLoad !== null) return this.catalogueLoad;
    this.catalogueState = 'loading';
    this.catalogueLoad = this.fetchCatalogue().finally(() => {
      this.catalogueLoad = null;
    });
    return this.catalogueLoad;
  }

  private async fetchCatalogue(): Promise<void> {
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
    void this.prepareSearch();
  }

  clearSearch(): void {
    this.search = '';
  }

  /**
   * Loads the search code and builds its index, once: on the patient's first focus or keystroke in
   * the search field. A failed load leaves the plain filter answering.
   */
  async prepareSearch(): Promise<void> {
    const catalogue = this.catalogue;
    if (catalogue === null || this.searchIndexState === 'loading' || this.searchIndexState === 'loaded') return;
    this.searchIndexState = 'loading';
    try {
      const { createExamSearch } = await import('@contract/search/exam-search');
      const index = createExamSearch(catalogue);
      runInAction(() => {
        this.searchIndex = index;
        this.searchIndexState = 'loaded';
      });
    } catch {
      runInAction(() => {
        this.searchIndexState = 'error';
      });
    }
  }

  /** Chooses a modality (null for all) and ends any search; a body part without exams in it is cleared. */
  setModality(modalityId: string | null): void {
    // Browsing replaces the search: a list narrowed by both would hide why an exam is missing.
    this.search = '';
    this.modalityFilter = modalityId;
    if (this.bodyPartFilter !== null && !this.availableBodyParts.has(this.bodyPartFilter)) this.bodyPartFilter = null;
  }

  /** Chooses a body part and ends any search; choosing the chosen one again clears it. */
  toggleBodyPart(slug: string): void {
    this.search = '';
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
    this.deps.selectionChanged();
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

  /** Restores a choice from a reload or a link: the catalogue's exams among `slugs`. */
  restore(slugs: string[]): void {
    this.selectedSlugs = [...new Set(slugs)];
    // A restored mixed-modality choice was already seen by the patient.
    this.walkInAskedFor = this.distinctModalities.join(',');
  }

  /** Forgets what earlier answers asked for (the questionnaires are answered again). */
  clearQuestionnaireOutcomes(): void {
    this.questionnaireMedicareRequired = false;
    this.questionnaireBookingRequest = false;
    this.questionnaireValidationCodeRequired = false;
    this.questionnaireDocument = null;
    this.questionnaireRequestMessage = null;
  }

  /** A new booking: nothing chosen, no questionnaire outcome, no filter. */
  reset(): void {
    this.clearQuestionnaireOutcomes();
    this.selectedSlugs = [];
    this.walkInExam = null;
    this.walkInAskedFor = '';
    this.selectionChanged();
    this.clearFilters();
  }
}
