import { makeAutoObservable, observableRef, runInAction } from 'mobx';
import { isValidCalendarDate } from '@contract/api/booking';
import { isShareEmail } from '@contract/api/result-shares';
import type { HistoryAppointment, PatientMatchRequest } from '@contract/api/results';
import { ApiError } from '../../api/client';
import { createResultsApi, type ResultsApi } from '../../api/results-api';
import { localDate } from '../../platform/dates';
import type { FeatureStoreContext } from '../../stores/root-store';
import { browserWindowOf, ImageOpener, type ImageOpenerDeps } from './image-opener';

/** The contract's phone rule (src-contract/api/results.ts PatientMatchRequestSchema): 6 to 15 digits, optional leading plus. */
export const MATCH_PHONE_PATTERN = /^\+?\d{6,15}$/;

/** Which detail the patient confirms besides the date of birth: exactly one of them is sent. */
export type MatchContactKind = 'email' | 'phone';
export type MatchField = 'dateOfBirth' | 'email' | 'phone';
export type MatchProblem = 'required' | 'invalid' | 'future';
/** noMatch: 404 patient_matching_error (message.patient_matching_error); failed: anything else. */
export type MatchError = 'noMatch' | 'failed';

export interface HistoryStoreDeps extends Omit<ImageOpenerDeps, 'imageViewer'> {
  api: ResultsApi;
  /** Today's local date (YYYY-MM-DD): the latest date of birth allowed. */
  today: () => string;
}

/** One earlier appointment of the list, with its own image opener. */
export class HistoryItem {
  appointment: HistoryAppointment;
  receivedAt: number;
  readonly images: ImageOpener;

  constructor(appointment: HistoryAppointment, receivedAt: number, images: ImageOpener) {
    this.appointment = appointment;
    this.receivedAt = receivedAt;
    this.images = images;
    makeAutoObservable(this, { appointment: observableRef, images: false });
  }
}

/** Spaces, dots, dashes and brackets people type in phone numbers are not part of it. */
const phoneDigits = (value: string): string => value.trim().replace(/[\s().-]/g, '');

/**
 * "Your earlier results" on the patient portal's result page (spec point 3 patient match form,
 * point 8 message.patient_matching_error): the date of birth and an e-mail or a phone, checked as
 * the contract checks them, then the earlier appointments with their reports, PDFs and images.
 */
export class HistoryStore {
  bookingKey: string | null = null;
  dateOfBirth = '';
  contactKind: MatchContactKind = 'email';
  email = '';
  phone = '';
  touched: Record<MatchField, boolean> = { dateOfBirth: false, email: false, phone: false };
  searching = false;
  error: MatchError | null = null;
  /** The earlier appointments, newest first as the server sends them; null before a search succeeded. */
  items: HistoryItem[] | null = null;

  private readonly deps: HistoryStoreDeps;
  /** The last request that was answered: asked again when an image link has to be renewed. */
  private sent: PatientMatchRequest | null = null;
  /** Bumped by start() and dispose() so an answer for an earlier page is ignored. */
  private generation = 0;

  constructor(deps: HistoryStoreDeps) {
    this.deps = deps;
    makeAutoObservable<this, 'deps' | 'sent' | 'generation'>(this, { deps: false, sent: false, generation: false, items: observableRef });
  }

  /** Opens the section for a booking, the date of birth prefilled from the page's dateOfBirth query when it is a date. */
  start(bookingKey: string, dateOfBirth: string | null): void {
    this.generation += 1;
    if (this.bookingKey !== bookingKey) {
      this.items = null;
      this.sent = null;
      this.email = '';
      this.phone = '';
      this.contactKind = 'email';
      this.dateOfBirth = '';
    }
    this.bookingKey = bookingKey;
    if (this.dateOfBirth === '' && dateOfBirth !== null && /^\d{4}-\d{2}-\d{2}$/.test(dateOfBirth)) this.dateOfBirth = dateOfBirth;
    this.touched = { dateOfBirth: false, email: false, phone: false };
    this.error = null;
    this.searching = false;
  }

  /** Forgets answers still on their way (the page unmounts). */
  dispose(): void {
    this.generation += 1;
    this.searching = false;
  }

  problem(field: MatchField): MatchProblem | null {
    switch (field) {
      case 'dateOfBirth': {
        const value = this.dateOfBirth.trim();
        if (!value) return 'required';
        if (!isValidCalendarDate(value)) return 'invalid';
        return value > this.deps.today() ? 'future' : null;
      }
      case 'email': {
        if (this.contactKind !== 'email') return null;
        const value = this.email.trim();
        if (!value) return 'required';
        return isShareEmail(value) ? null : 'invalid';
      }
      case 'phone': {
        if (this.contactKind !== 'phone') return null;
        const value = phoneDigits(this.phone);
        if (!value) return 'required';
        return MATCH_PHONE_PATTERN.test(value) ? null : 'invalid';
      }
    }
  }

  /** The problem to show next to the field: after it was left or a search was tried. */
  visibleProblem(field: MatchField): MatchProblem | null {
    return this.touched[field] ? this.problem(field) : null;
  }

  /** The first field with a problem, for the focus move; null when the form may be sent. */
  get firstInvalid(): MatchField | null {
    const fields: MatchField[] = ['dateOfBirth', this.contactKind];
    return fields.find((field) => this.problem(field) !== null) ?? null;
  }

  setDateOfBirth(value: string): void {
    this.dateOfBirth = value;
  }

  setContactKind(kind: MatchContactKind): void {
    this.contactKind = kind;
  }

  setEmail(value: string): void {
    this.email = value;
  }

  setPhone(value: string): void {
    this.phone = value;
  }

  touch(field: MatchField): void {
    this.touched[field] = true;
  }

  /** The request body: the date of birth and exactly one of e-mail or phone. */
  get request(): PatientMatchRequest {
    const dateOfBirth = this.dateOfBirth.trim();
    return this.contactKind === 'email' ? { dateOfBirth, email: this.email.trim() } : { dateOfBirth, phone: phoneDigits(this.phone) };
  }

  /** Sends the form when it is valid; resolves true when the list arrived. */
  async submit(): Promise<boolean> {
    this.touched = { dateOfBirth: true, email: true, phone: true };
    const bookingKey = this.bookingKey;
    if (bookingKey === null || this.firstInvalid !== null || this.searching) return false;
    const generation = this.generation;
    const request = this.request;
    this.searching = true;
    this.error = null;
    try {
      const answer = await this.deps.api.patientMatch(bookingKey, request);
      if (generation !== this.generation) return false;
      runInAction(() => {
        this.sent = request;
        this.items = answer.historyAppointments.map((appointment) => new HistoryItem(appointment, this.deps.now(), this.newOpener()));
      });
      return true;
    } catch (error) {
      runInAction(() => {
        if (generation !== this.generation) return;
        this.items = null;
        // A 401 went to sign-in already (the client's rule).
        if (error instanceof ApiError && error.status === 401) return;
        this.error = error instanceof ApiError && error.status === 404 ? 'noMatch' : 'failed';
      });
      return false;
    } finally {
      runInAction(() => {
        if (generation === this.generation) this.searching = false;
      });
    }
  }

  /** A history report's PDF link (inline or download). */
  pdfUrl(item: HistoryItem, download: boolean): string | undefined {
    return this.bookingKey === null ? undefined : this.deps.api.historyPdfUrl(this.bookingKey, item.appointment.resultId, download);
  }

  /** Opens an earlier report's images; a stale link is renewed by asking the match again. */
  async openImages(item: HistoryItem): Promise<void> {
    const generation = this.generation;
    await item.images.open({
      link: () => item.appointment.imageViewerLink,
      receivedAt: () => item.receivedAt,
      reload: () => this.reloadLink(item, generation),
      isCurrent: () => generation === this.generation,
    });
  }

  private async reloadLink(item: HistoryItem, generation: number): Promise<string | null> {
    const bookingKey = this.bookingKey;
    const sent = this.sent;
    if (bookingKey === null || sent === null) return null;
    const answer = await this.deps.api.patientMatch(bookingKey, sent);
    if (generation !== this.generation) return null;
    const again = answer.historyAppointments.find((appointment) => appointment.resultId === item.appointment.resultId);
    if (again === undefined) return null;
    runInAction(() => {
      item.appointment = again;
      item.receivedAt = this.deps.now();
    });
    return again.imageViewerLink;
  }

  private newOpener(): ImageOpener {
    return new ImageOpener({ ...this.deps, imageViewer: (link) => this.deps.api.imageViewer(link) });
  }
}

/** The history section's store, built once per visit (RootStore.featureStore). */
export function historyStoreOf({ client, window, navigator }: FeatureStoreContext): HistoryStore {
  return new HistoryStore({
    api: createResultsApi(client),
    navigator,
    browser: browserWindowOf(window),
    now: () => Date.now(),
    today: () => localDate(new Date()),
  });
}
