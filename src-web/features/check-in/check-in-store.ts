import { makeAutoObservable, runInAction } from 'mobx';
import { CheckInFormSchema, type CheckInStatus, type GENDERS } from '@contract/api/check-in';
import { DOCTOR_SEARCH_MIN_LENGTH, normaliseDoctorSearch, type ReferringDoctor } from '@contract/api/referring-doctors';
import type { CheckInChecklist } from '@contract/api/check-in-checklist';
import type { CheckInApi } from '../../api/check-in-api';
import { ApiError } from '../../api/client';
import { Loader, type LoadState } from '../../platform/load-state';

/**
 * Digital check-in of one appointment (docs/rules/check-in.md): the status, the form with the
 * doctor search (from 3 characters, lower-cased, 200 ms after the last key, doctors already chosen
 * hidden), then prepare, poll until the clinic has the form, check in, poll until checked in
 * (docs/rules/check-in.md#digital-check-in). Simple mode only confirms, then checks in.
 */

export const DOCTOR_SEARCH_DEBOUNCE_MS = 200;
export const POLL_MS = 1_000;
export interface CheckInStoreDeps {
  api: CheckInApi;
  bookingKey: string;
  appointmentSlug: string;
  /** The clinic's today (YYYY-MM-DD): a referral cannot be dated later. */
  today: () => string;
  /** Runs when this page saw the check-in through (the appointment's status changed). */
  onCheckedIn?: () => void;
}

/** The hand-off gives up after about four minutes; the page stops waiting a little later. */
export const POLL_GIVE_UP_MS = 5 * 60_000;

export type CheckInField = 'referrer' | 'dateOfReferral' | 'medicareNumber' | 'referenceNumber' | 'gender';
export type CheckInDialog = 'simpleConfirm' | 'processing' | 'confirmed' | 'error';
type Gender = (typeof GENDERS)[number];

export class CheckInStore {
  status: CheckInStatus | null = null;
  readonly loader = new Loader();
  referrer: ReferringDoctor | null = null;
  dateOfReferral = '';
  medicareNumber = '';
  referenceNumber = '';
  gender: Gender | '' = '';
  /** Fields the patient has left (their errors show from then on), or all after a submit. */
  touched = new Set<CheckInField>();
  searchText = '';
  searchResults: ReferringDoctor[] = [];
  searching = false;
  searchFailed = false;
  submitting = false;
  dialog: CheckInDialog | null = null;
  /** The server's message for the error dialog; null: the generic check-in error. */
  errorMessage: string | null = null;

  private searchTimer: ReturnType<typeof setTimeout> | null = null;
  private searchAbort: AbortController | null = null;
  private pollTimer: ReturnType<typeof setTimeout> | null = null;
  private disposed = false;

  /** The checklist after check-in (a stable function, so the view loads it once). */
  readonly loadChecklist = (): Promise<CheckInChecklist> => this.api.checklist(this.bookingKey, this.appointmentSlug);

  readonly bookingKey: string;
  readonly appointmentSlug: string;
  private readonly api: CheckInApi;
  private readonly today: () => string;
  private readonly onCheckedIn: () => void;

  constructor(deps: CheckInStoreDeps) {
    this.api = deps.api;
    this.bookingKey = deps.bookingKey;
    this.appointmentSlug = deps.appointmentSlug;
    this.today = deps.today;
    this.onCheckedIn = deps.onCheckedIn ?? (() => undefined);
    makeAutoObservable<CheckInStore, 'searchTimer' | 'searchAbort' | 'pollTimer' | 'disposed' | 'api' | 'today' | 'onCheckedIn'>(this, {
      searchTimer: false,
      searchAbort: false,
      pollTimer: false,
      disposed: false,
      api: false,
      today: false,
      onCheckedIn: false,
      loadChecklist: false,
      loader: false,
    });
  }

  get loadState(): LoadState {
    return this.loader.state;
  }

  /** Fields with a problem, by the same rules as the server (CheckInFormSchema), plus the clinic's today. */
  get fieldErrors(): Partial<Record<CheckInField, true>> {
    const errors: Partial<Record<CheckInField, true>> = {};
    const parsed = CheckInFormSchema.safeParse(this.formValue);
    if (!parsed.success) for (const issue of parsed.error.issues) errors[issue.path[0] as CheckInField] = true;
    if (this.dateOfReferral !== '' && this.dateOfReferral > this.today()) errors.dateOfReferral = true;
    if (this.status?.showGenderSelection && this.gender === '') errors.gender = true;
    return errors;
  }

  get valid(): boolean {
    return Object.keys(this.fieldErrors).length === 0;
  }

  /** Submit is disabled while the form is invalid or a check-in is on its way. */
  get canSubmit(): boolean {
    return this.valid && !this.submitting;
  }

  get inProgress(): boolean {
    return this.status !== null && ['PREPARING', 'PREPARED', 'CHECKING_IN'].includes(this.status.state);
  }

  private get formValue() {
    return {
      referrer: this.referrer?.id ?? '',
      dateOfReferral: this.dateOfReferral,
      medicareNumber: this.medicareNumber,
      referenceNumber: this.referenceNumber,
      ...(this.status?.showGenderSelection && this.gender !== '' ? { gender: this.gender } : {}),
    };
  }

  shows(field: CheckInField): boolean {
    return this.touched.has(field) && this.fieldErrors[field] === true;
  }

  touch(field: CheckInField): void {
    this.touched.add(field);
  }

  setField(field: 'dateOfReferral' | 'medicareNumber' | 'referenceNumber', value: string): void {
    this[field] = value;
  }

  setGender(value: Gender): void {
    this.gender = value;
    this.touched.add('gender');
  }

  /**
   * Starts the form from what the referral upload recorded (its date, the doctor when the
   * directory knows the name), without overwriting what the patient typed; all still editable.
   */
  private prefill(status: CheckInStatus): void {
    const recorded = status.prefill;
    if (!recorded) return;
    if (this.dateOfReferral === '' && !this.touched.has('dateOfReferral') && recorded.dateOfReferral !== null)
      this.dateOfReferral = recorded.dateOfReferral;
    if (this.referrer === null && !this.touched.has('referrer') && recorded.referrer !== null) this.referrer = recorded.referrer;
  }

  async load(): Promise<void> {
    const loaded = await this.loader.run(() => this.api.status(this.bookingKey, this.appointmentSlug), {
      loaded: (status) => {
        this.status = status;
        this.prefill(status);
      },
    });
    // Back on the page while a check-in is on its way: keep following it.
    if (loaded && this.inProgress && this.pollTimer === null) this.follow(Date.now());
  }

  /** The doctor search: asked 200 ms after the last key, from 3 characters, lower-cased. */
  setSearchText(text: string): void {
    this.searchText = text;
    if (this.searchTimer !== null) clearTimeout(this.searchTimer);
    this.searchAbort?.abort();
    const query = normaliseDoctorSearch(text);
    if (query.length < DOCTOR_SEARCH_MIN_LENGTH) {
      this.searchResults = [];
      this.searching = false;
      return;
    }
    this.searching = true;
    this.searchTimer = setTimeout(() => void this.search(query), DOCTOR_SEARCH_DEBOUNCE_MS);
  }

  private async search(query: string): Promise<void> {
    const abort = new AbortController();
    this.searchAbort = abort;
    try {
      const doctors = await this.api.searchDoctors(this.bookingKey, query, abort.signal);
      if (abort.signal.aborted) return;
      runInAction(() => {
        // The doctor already chosen is not offered again.
        this.searchResults = doctors.filter((doctor) => doctor.id !== this.referrer?.id);
        this.searching = false;
        this.searchFailed = false;
      });
    } catch {
      if (abort.signal.aborted) return;
      runInAction(() => {
        this.searchResults = [];
        this.searching = false;
        this.searchFailed = true;
      });
    }
  }

  chooseDoctor(doctor: ReferringDoctor): void {
    this.referrer = doctor;
    this.touched.add('referrer');
    this.searchText = '';
    this.searchResults = [];
  }

  clearDoctor(): void {
    this.referrer = null;
  }

  /** The form's submit: prepare, then follow the hand-off to the end. */
  async submit(): Promise<void> {
    for (const field of ['referrer', 'dateOfReferral', 'medicareNumber', 'referenceNumber', 'gender'] as const) this.touched.add(field);
    if (!this.canSubmit) return;
    const form = CheckInFormSchema.parse(this.formValue);
    await this.run(() => this.api.prepare(this.bookingKey, this.appointmentSlug, form));
  }

  /** Simple mode: the confirmation, then check in. */
  askSimpleConfirm(): void {
    this.dialog = 'simpleConfirm';
  }

  async confirmSimple(): Promise<void> {
    await this.run(() => this.api.checkIn(this.bookingKey, this.appointmentSlug));
  }

  closeDialog(): void {
    if (this.dialog === 'processing') return;
    this.dialog = null;
  }

  dispose(): void {
    this.disposed = true;
    this.loader.dispose();
    if (this.searchTimer !== null) clearTimeout(this.searchTimer);
    if (this.pollTimer !== null) clearTimeout(this.pollTimer);
    this.searchAbort?.abort();
  }

  private async run(start: () => Promise<CheckInStatus>): Promise<void> {
    this.submitting = true;
    this.errorMessage = null;
    this.dialog = 'processing';
    try {
      const status = await start();
      runInAction(() => {
        this.status = status;
      });
      this.follow(Date.now());
    } catch (error) {
      this.fail(error instanceof ApiError && error.kind !== 'network' ? error.message : null);
    }
  }

  /** Polls until the clinic has the form (then checks in), and until the check-in is sent. */
  private follow(startedAt: number): void {
    if (this.disposed) return;
    const state = this.status?.state;
    if (state === 'CHECKED_IN') {
      runInAction(() => {
        this.submitting = false;
        this.dialog = 'confirmed';
      });
      this.onCheckedIn();
      return;
    }
    if (state === 'FAILED' || Date.now() - startedAt > POLL_GIVE_UP_MS) {
      this.fail(null);
      return;
    }
    runInAction(() => {
      this.submitting = true;
      this.dialog = 'processing';
    });
    this.pollTimer = setTimeout(() => {
      this.pollTimer = null;
      void this.poll(startedAt);
    }, POLL_MS);
  }

  private async poll(startedAt: number): Promise<void> {
    try {
      let status = await this.api.status(this.bookingKey, this.appointmentSlug);
      if (status.state === 'PREPARED') status = await this.api.checkIn(this.bookingKey, this.appointmentSlug);
      runInAction(() => {
        this.status = status;
      });
      this.follow(startedAt);
    } catch {
      // Polling failure leads to the error step.
      this.fail(null);
    }
  }

  private fail(message: string | null): void {
    runInAction(() => {
      this.submitting = false;
      this.errorMessage = message;
      this.dialog = 'error';
    });
  }
}
