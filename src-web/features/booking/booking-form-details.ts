import { makeAutoObservable, runInAction } from 'mobx';
import {
  InsuranceAnswerSchema,
  ORGANISATION_SEARCH_MAX_LENGTH,
  ORGANISATION_SEARCH_MIN_LENGTH,
  ReferringPracticeAnswerSchema,
  type BookingFormAnswers,
  type BookingFormDetails,
  type InsuranceType,
  type OrganisationSearchResponse,
  type ReferringOrganisation,
} from '@contract/api/booking-form-details';

/**
 * The booking form's details (docs/rules/booking.md#booking-form-details): how the exam is paid
 * for (with the card details the chosen way needs), the ethnicity question and the referring
 * practice (found in the directory, or typed when not listed). Checked with the contract's own
 * schemas, so the page says what the server would refuse before sending. Loaded with the details step.
 */
// In the page's order (the fund's name comes before its member number), so the first to fix is the first on the page.
export const DETAILS_FIELDS = ['insurance', 'fundName', 'memberNumber', 'ethnicity', 'practiceName'] as const;
export type DetailsField = (typeof DETAILS_FIELDS)[number];
export type DetailsProblem = 'required' | 'invalid';

export type OrganisationSearch = (q: string, signal?: AbortSignal) => Promise<OrganisationSearchResponse>;

const insuranceShape = InsuranceAnswerSchema.shape;
const practiceShape = ReferringPracticeAnswerSchema.shape;

/** The search text as the server normalises it. */
function normalised(text: string): string {
  return text.trim().replace(/\s+/g, ' ').toLowerCase();
}

export class FormDetailsForm {
  insuranceCode = '';
  memberNumber = '';
  fundName = '';
  ethnicityCode = '';
  practiceName = '';
  /** Set when the practice was chosen from the directory; typed names have none. */
  practiceSuburb = '';
  touched = new Set<DetailsField>();
  /** The patient asked to see the optional questions (see `collapsed`). */
  opened = false;

  /** The directory's practices for the last search, and whether one is running. */
  organisations: ReferringOrganisation[] = [];
  searching = false;
  /** The normalised text the shown list answers (null before any search). */
  searchedFor: string | null = null;
  searchFailed = false;
  private controller: AbortController | null = null;

  constructor(
    readonly config: BookingFormDetails,
    private readonly search: OrganisationSearch,
  ) {
    makeAutoObservable<this, 'search' | 'controller'>(this, { config: false, search: false, controller: false });
  }

  /**
   * While every question is optional and none answered, the questions wait behind one "Add these
   * details" button: one Tab stop instead of three on the way to "Book appointment", which keeps the
   * keyboard-only booking within its bound (docs/rules/booking.md#keyboard). A required question shows them.
   */
  get collapsed(): boolean {
    const { insurance, ethnicity, referringPractice } = this.config;
    const required = insurance.required || ethnicity.required || referringPractice.required;
    return !this.opened && !required && this.toAnswers() === undefined;
  }

  open(): void {
    this.opened = true;
  }

  get insuranceType(): InsuranceType | null {
    return this.config.insurance.types.find((type) => type.code === this.insuranceCode) ?? null;
  }

  /** Medicare pays: the patient's details must give the Medicare number. */
  get needsMedicare(): boolean {
    return this.insuranceType?.kind === 'MEDICARE';
  }

  /** The fields on the form now: the card details of the chosen way to pay only. */
  get fields(): readonly DetailsField[] {
    const kind = this.insuranceType?.kind;
    return DETAILS_FIELDS.filter((field) => {
      if (field === 'insurance') return this.config.insurance.asked;
      if (field === 'memberNumber') return kind === 'DVA' || kind === 'PRIVATE';
      if (field === 'fundName') return kind === 'PRIVATE';
      if (field === 'ethnicity') return this.config.ethnicity.asked;
      return this.config.referringPractice.asked;
    });
  }

  problemOf(field: DetailsField): DetailsProblem | null {
    if (!this.fields.includes(field)) return null;
    switch (field) {
      case 'insurance':
        return this.insuranceCode === '' && this.config.insurance.required ? 'required' : null;
      case 'memberNumber':
        if (this.memberNumber.trim() === '') return 'required';
        return insuranceShape.memberNumber.safeParse(this.memberNumber).success ? null : 'invalid';
      case 'fundName':
        if (this.fundName.trim() === '') return 'required';
        return insuranceShape.fundName.safeParse(this.fundName).success ? null : 'invalid';
      case 'ethnicity':
        return this.ethnicityCode === '' && this.config.ethnicity.required ? 'required' : null;
      case 'practiceName':
        if (this.practiceName.trim() === '') return this.config.referringPractice.required ? 'required' : null;
        return practiceShape.name.safeParse(this.practiceName).success ? null : 'invalid';
    }
  }

  /** The problem to show now: once the field was left, or after a submit attempt. */
  visibleProblem(field: DetailsField): DetailsProblem | null {
    return this.touched.has(field) ? this.problemOf(field) : null;
  }

  get isValid(): boolean {
    return this.fields.every((field) => this.problemOf(field) === null);
  }

  get firstInvalidField(): DetailsField | null {
    return this.fields.find((field) => this.problemOf(field) !== null) ?? null;
  }

  /** Another way to pay keeps what was typed for the others (nothing typed is lost); only the chosen one's details are sent. */
  setInsurance(code: string): void {
    this.insuranceCode = code;
    this.touched.add('insurance');
  }

  setValue(field: 'memberNumber' | 'fundName', value: string): void {
    this.memberNumber = field === 'memberNumber' ? value : this.memberNumber;
    this.fundName = field === 'fundName' ? value : this.fundName;
  }

  setEthnicity(code: string): void {
    this.ethnicityCode = code;
    this.touched.add('ethnicity');
  }

  /** A typed name: no longer the directory's practice, so no suburb. */
  setPracticeName(value: string): void {
    this.practiceName = value;
    this.practiceSuburb = '';
  }

  choosePractice(organisation: ReferringOrganisation): void {
    this.practiceName = organisation.name;
    this.practiceSuburb = organisation.suburb;
    this.organisations = [];
    this.searchedFor = null;
    this.touched.add('practiceName');
  }

  touch(field: DetailsField): void {
    this.touched.add(field);
  }

  touchAll(): void {
    for (const field of this.fields) this.touched.add(field);
  }

  /** Whether the typed name is worth a search (3 to 50 characters, not the practice just chosen). */
  get searchText(): string | null {
    const text = normalised(this.practiceName);
    if (text.length < ORGANISATION_SEARCH_MIN_LENGTH || text.length > ORGANISATION_SEARCH_MAX_LENGTH) return null;
    return this.practiceSuburb === '' ? text : null;
  }

  /** Searches the directory for the typed name; an earlier search still running is cancelled. A failure leaves typing free. */
  async searchPractices(): Promise<void> {
    const text = this.searchText;
    this.controller?.abort();
    if (text === null) {
      this.organisations = [];
      this.searchedFor = null;
      this.searching = false;
      return;
    }
    const controller = new AbortController();
    this.controller = controller;
    this.searching = true;
    this.searchFailed = false;
    try {
      const { organisations } = await this.search(text, controller.signal);
      if (controller.signal.aborted) return;
      runInAction(() => {
        this.organisations = organisations;
        this.searchedFor = text;
        this.searching = false;
      });
    } catch {
      if (controller.signal.aborted) return;
      runInAction(() => {
        this.organisations = [];
        this.searchedFor = null;
        this.searchFailed = true;
        this.searching = false;
      });
    }
  }

  /** The answers as the contract wants them; call only when isValid. Undefined when nothing was answered. */
  toAnswers(): BookingFormAnswers | undefined {
    const type = this.fields.includes('insurance') ? this.insuranceType : null;
    const practice = this.practiceName.trim();
    const answers: BookingFormAnswers = {
      ...(type
        ? {
            insurance: {
              typeCode: type.code,
              ...(type.kind === 'DVA' || type.kind === 'PRIVATE' ? { memberNumber: this.memberNumber.trim() } : {}),
              ...(type.kind === 'PRIVATE' ? { fundName: this.fundName.trim() } : {}),
            },
          }
        : {}),
      ...(this.fields.includes('ethnicity') && this.ethnicityCode !== '' ? { ethnicityCode: this.ethnicityCode } : {}),
      ...(this.fields.includes('practiceName') && practice !== ''
        ? { referringPractice: { name: practice, ...(this.practiceSuburb !== '' ? { suburb: this.practiceSuburb } : {}) } }
        : {}),
    };
    return Object.keys(answers).length === 0 ? undefined : answers;
  }
}
