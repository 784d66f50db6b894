import { makeAutoObservable, observableRef, runInAction } from 'mobx';
import type {
  AppointmentStatus,
  AppointmentSummary,
  ChangeRefusal,
  ConsentForm,
  DetailsChangeRequest,
  RescheduleRequest,
} from '@contract/api/appointments';
import { DENIED_STATUSES } from '@contract/api/appointment-statuses';
import { createAppointmentsApi, type AppointmentsApi } from '../../api/appointments-api';
import { ApiError } from '../../api/client';
import { paths } from '../../paths';
import { randomUuid } from '../booking/public';
import type { LoadState } from '../../platform/load-state';
import type { FeatureStoreContext } from '../../stores/root-store';
import type { PatientSubject, PortalNavigator } from '../../stores/session-store';
import { loadSignedInSummary, loadStateOf } from '../../platform/signed-in-summary';

/** Statuses in which the patient may still cancel, move, confirm or sign (the appointment is live). */
const LIVE_STATUSES: readonly AppointmentStatus[] = ['BOOKED', 'PENDING', 'CONFIRMED', 'REQUEST_RESCHEDULE'];

/** The questionnaire type a cancellation goes through when the provider requires one (spec point 3). */
export const CANCEL_QUESTIONNAIRE_TYPE = 'CANCEL_APPOINTMENT_PATIENT';

export type RescheduleContext = RescheduleRequest['context'];

/** The fields of the patient details change request (every one optional; at least one). */
export const DETAILS_FIELDS = ['firstName', 'lastName', 'dateOfBirth', 'email', 'contactNumber', 'postcode', 'note'] as const;
export type DetailsField = (typeof DETAILS_FIELDS)[number];

/** The one dialog open on the appointment page (spec point 2 "Modals and widgets"). */
export type AppointmentDialog =
  /** Cancel refused: the information dialog naming the prior-minutes limit. */
  | { kind: 'cancelNotAllowed'; priorMinutes: number }
  /** Yes/no: cancel this appointment? */
  | { kind: 'cancelConfirm' }
  /** The cancel-reason dialog (reasons are configured). */
  | { kind: 'cancelReason' }
  /** Reschedule or change refused, with why (spec point 8). */
  | { kind: 'rescheduleNotAllowed'; reason: ChangeRefusal; priorMinutes: number }
  /** Yes/no: ask the clinic to reschedule? */
  | { kind: 'requestRescheduleConfirm' }
  /** A consent form to read and sign. */
  | { kind: 'consent'; formId: string }
  /** Some consent forms wait for a signature (the provider's notifyPatient). */
  | { kind: 'consentNotification' }
  | { kind: 'detailsChange' }
  | { kind: 'detailsChangeSuccess' }
  /** The server's message, or '' for the default text. */
  | { kind: 'detailsChangeError'; message: string }
  /** Any other failed action: the server's message, or '' for the default text. */
  | { kind: 'error'; message: string };

export interface AppointmentStoreDeps {
  api: AppointmentsApi;
  /** The authenticated check (helper 10's PatientAccessStore.ensureSignedIn). */
  ensureSignedIn: (bookingKey: string, type: PatientSubject) => Promise<boolean>;
  navigator: () => PortalNavigator;
  /** A fresh UUID for the reschedule's Idempotency-Key header. */
  newIdempotencyKey: () => string;
}

/** How a reschedule attempt from the booking flow ended. */
export type RescheduleOutcome = 'done' | 'slot_taken' | 'not_allowed' | 'failed';

function isEmbedded(url: string): boolean {
  return url === '/iframe' || url.startsWith('/iframe/') || url.startsWith('/iframe?');
}

/** The server's own message for a 4xx answer, else '' (the page then shows its default text). */
function serverMessage(error: unknown): string {
  if (!(error instanceof ApiError) || error.kind !== 'http' || error.status >= 500) return '';
  return error.message.startsWith('Request failed with status') ? '' : error.message;
}

function changeRefusal(error: unknown): { reason: ChangeRefusal; priorMinutes: number } | null {
  if (!(error instanceof ApiError) || error.code !== 'change_not_allowed') return null;
  const details = error.details;
  const reason = typeof details === 'object' && details !== null && 'reason' in details ? details.reason : null;
  const priorMinutes = typeof details === 'object' && details !== null && 'priorMinutes' in details ? details.priorMinutes : 0;
  const known: readonly ChangeRefusal[] = ['PRIOR_MINUTES', 'APPOINTMENT_CANCELLED', 'WALK_IN', 'OTHER'];
  const match = known.find((candidate) => candidate === reason) ?? 'OTHER';
  return { reason: match, priorMinutes: typeof priorMinutes === 'number' ? priorMinutes : 0 };
}

/**
 * The patient's appointment page (issue 4, spec point 4 "Cancel appointment", "Reschedule"):
 * the booking's summary and every self-service action with its dialogs. Components render what
 * is here and call its actions.
 */
export class AppointmentStore {
  bookingKey: string | null = null;
  summary: AppointmentSummary | null = null;
  loadState: LoadState = 'idle';
  dialog: AppointmentDialog | null = null;
  /** An action is on its way (buttons are disabled). */
  busy = false;
  /** A short success line after an action (confirmed, unsubscribed, moved…), as a translation choice. */
  notice: 'cancelled' | 'confirmed' | 'unsubscribed' | 'requestedReschedule' | 'moved' | 'consentSigned' | null = null;

  // Cancel reason dialog
  cancelReason = '';
  cancelNote = '';
  cancelReasonMissing = false;

  // Consent forms
  consentForms: ConsentForm[] = [];
  consentState: LoadState = 'idle';
  signedName = '';
  agreed = false;
  /** Shown in the consent dialog when the name or the agreement is missing. */
  consentProblem: 'name' | 'agree' | null = null;

  // Patient details change request
  details: Record<DetailsField, string> = {
    firstName: '',
    lastName: '',
    dateOfBirth: '',
    email: '',
    contactNumber: '',
    postcode: '',
    note: '',
  };
  detailsEmpty = false;

  private readonly deps: AppointmentStoreDeps;
  private rescheduleKey: { request: string; key: string } | null = null;
  /** Bookings whose consent notification was shown this visit (it opens once, not on every return). */
  private readonly consentNoticeShown = new Set<string>();
  /** Bumped by open() so an answer for an earlier booking is ignored. */
  private generation = 0;

  constructor(deps: AppointmentStoreDeps) {
    this.deps = deps;
    makeAutoObservable<this, 'deps' | 'rescheduleKey' | 'generation' | 'consentNoticeShown'>(this, {
      deps: false,
      rescheduleKey: false,
      generation: false,
      consentNoticeShown: false,
      summary: observableRef,
      consentForms: observableRef,
    });
  }

  // ------------------------------------------------------------------------------------------
  // Derived state

  get status(): AppointmentStatus | null {
    return this.summary?.status ?? null;
  }

  /** The appointment is live: cancel, move, confirm and sign are offered. */
  get live(): boolean {
    return this.status !== null && LIVE_STATUSES.includes(this.status);
  }

  get canConfirm(): boolean {
    return this.live && this.summary !== null && this.summary.canConfirm && !this.summary.confirmed;
  }

  get cancelReasons(): string[] {
    return this.summary?.cancelReasons.map((reason) => reason.label) ?? [];
  }

  get openConsentForm(): ConsentForm | null {
    const dialog = this.dialog;
    if (dialog?.kind !== 'consent') return null;
    return this.consentForms.find((form) => form.id === dialog.formId) ?? null;
  }

  get unsignedConsentForms(): ConsentForm[] {
    return this.consentForms.filter((form) => !form.signed);
  }

  // ------------------------------------------------------------------------------------------
  // Opening the page

  /**
   * Opens the page for a booking: the authenticated check first (sign-in when needed), then the
   * summary. A status the patient cannot use goes to /deny?status=… (spec point 4).
   */
  async open(bookingKey: string): Promise<void> {
    this.generation += 1;
    const generation = this.generation;
    if (this.bookingKey !== bookingKey) {
      this.summary = null;
      this.notice = null;
      this.consentForms = [];
      this.consentState = 'idle';
      this.rescheduleKey = null;
    }
    this.bookingKey = bookingKey;
    this.dialog = null;
    this.loadState = 'loading';
    const load = await loadSignedInSummary({
      signIn: () => this.deps.ensureSignedIn(bookingKey, 'APPOINTMENT'),
      summary: () => this.deps.api.summary(bookingKey),
      isCurrent: () => generation === this.generation,
    });
    if (load.kind === 'superseded') return;
    if (load.kind === 'loaded' && DENIED_STATUSES.includes(load.summary.status)) {
      this.goToDeny(load.summary.status);
      return;
    }
    runInAction(() => {
      if (load.kind === 'loaded') this.summary = load.summary;
      this.loadState = loadStateOf(load);
    });
    if (load.kind === 'loaded' && LIVE_STATUSES.includes(load.summary.status)) await this.loadConsentForms();
  }

  /**
   * The booking being moved, for the booking flow's last step: signs in when needed and loads
   * the summary once (no consent forms, no redirects: the step shows what changes).
   */
  async ensureSummary(bookingKey: string): Promise<void> {
    if (this.summary?.bookingKey === bookingKey) return;
    this.bookingKey = bookingKey;
    if (!(await this.deps.ensureSignedIn(bookingKey, 'APPOINTMENT'))) return;
    try {
      const summary = await this.deps.api.summary(bookingKey);
      runInAction(() => {
        if (this.bookingKey === bookingKey) this.summary = summary;
      });
    } catch {
      // The step still moves the booking; it only lacks the old time.
    }
  }

  /** Forgets answers still on their way (the page unmounts). */
  dispose(): void {
    this.generation += 1;
  }

  closeDialog(): void {
    this.dialog = null;
  }

  clearNotice(): void {
    this.notice = null;
  }

  // ------------------------------------------------------------------------------------------
  // Cancel

  /**
   * Cancel (spec point 4): the server says whether a change is allowed. If not, the information
   * dialog names the prior-minutes limit; if so, the yes/no confirmation opens.
   */
  async startCancel(): Promise<void> {
    const bookingKey = this.bookingKey;
    if (!bookingKey || this.busy) return;
    this.busy = true;
    this.notice = null;
    try {
      const answer = await this.deps.api.canChange(bookingKey, 'CANCEL');
      runInAction(() => {
        this.busy = false;
        this.dialog = answer.canChange ? { kind: 'cancelConfirm' } : { kind: 'cancelNotAllowed', priorMinutes: answer.priorMinutes };
      });
    } catch (error) {
      this.failed(error);
    }
  }

  /**
   * Yes on the confirmation: the questionnaire when the provider requires one, else the reason
   * dialog when reasons are configured, else the cancellation itself.
   */
  async confirmCancel(): Promise<void> {
    const summary = this.summary;
    if (!summary || !this.bookingKey) return;
    if (summary.cancelQuestionnaireRequired) {
      this.dialog = null;
      const query = `bookingKey=${encodeURIComponent(this.bookingKey)}&type=${CANCEL_QUESTIONNAIRE_TYPE}`;
      this.navigate(`${paths.questionnaires()}?${query}`);
      return;
    }
    if (this.cancelReasons.length > 0) {
      this.cancelReason = '';
      this.cancelNote = '';
      this.cancelReasonMissing = false;
      this.dialog = { kind: 'cancelReason' };
      return;
    }
    await this.submitCancel();
  }

  setCancelReason(label: string): void {
    this.cancelReason = label;
    this.cancelReasonMissing = false;
  }

  setCancelNote(note: string): void {
    this.cancelNote = note;
  }

  /** Cancels (status CANCELED); a reason is required when reasons are configured. */
  async submitCancel(): Promise<boolean> {
    const bookingKey = this.bookingKey;
    if (!bookingKey || this.busy) return false;
    const reasons = this.cancelReasons;
    if (reasons.length > 0 && !reasons.includes(this.cancelReason)) {
      this.cancelReasonMissing = true;
      return false;
    }
    const note = this.cancelNote.trim();
    this.busy = true;
    try {
      const summary = await this.deps.api.cancel(bookingKey, {
        ...(reasons.length > 0 ? { reason: { label: this.cancelReason } } : {}),
        ...(note ? { note } : {}),
      });
      runInAction(() => {
        this.summary = summary;
        this.busy = false;
        this.dialog = null;
        this.notice = 'cancelled';
      });
      return true;
    } catch (error) {
      const refused = changeRefusal(error);
      if (refused) {
        runInAction(() => {
          this.busy = false;
          this.dialog = { kind: 'cancelNotAllowed', priorMinutes: refused.priorMinutes };
        });
        return false;
      }
      this.failed(error);
      return false;
    }
  }

  // ------------------------------------------------------------------------------------------
  // Reschedule, change, request reschedule

  /**
   * Reschedule (RESCHEDULED) or change (CHANGED): the server check first; a refusal shows its
   * message (walk-in, cancelled, prior minutes, other); otherwise the booking flow opens with
   * the booking's exams and clinic chosen.
   */
  async startReschedule(context: RescheduleContext): Promise<void> {
    const bookingKey = this.bookingKey;
    const summary = this.summary;
    if (!bookingKey || !summary || this.busy) return;
    this.busy = true;
    this.notice = null;
    try {
      const answer = await this.deps.api.canChange(bookingKey, 'RESCHEDULE');
      runInAction(() => {
        this.busy = false;
        if (!answer.canChange) {
          this.dialog = { kind: 'rescheduleNotAllowed', reason: answer.reason ?? 'OTHER', priorMinutes: answer.priorMinutes };
          return;
        }
        this.navigate(this.bookingFlowUrl(context));
      });
    } catch (error) {
      this.failed(error);
    }
  }

  /**
   * Where the booking flow starts for a move: the reschedule keeps the exams and opens the
   * times at the booking's clinic (step 1); a change starts at the exam choice (step 0).
   */
  bookingFlowUrl(context: RescheduleContext): string {
    const summary = this.summary;
    const params = new URLSearchParams();
    params.set('reschedule', this.bookingKey ?? '');
    params.set('context', context);
    if (summary) {
      const exams = [...new Set(summary.appointments.map((appointment) => appointment.examSlug))];
      if (exams.length > 0) params.set('exams', exams.join(','));
      params.set('clinic', summary.clinic.slug);
      // The clinic's own position: the clinics are listed from it, no location prompt.
      params.set('lat', String(summary.clinic.latitude));
      params.set('lng', String(summary.clinic.longitude));
    }
    if (context === 'RESCHEDULED') params.set('step', '1');
    // Under /iframe the empty path is the region page; the booking flow is at advanced-booking.
    const embedded = isEmbedded(this.deps.navigator().currentUrl());
    return embedded ? paths.embedded(`${paths.advancedBooking()}?${params.toString()}`) : `${paths.home()}?${params.toString()}`;
  }

  openRequestReschedule(): void {
    this.notice = null;
    this.dialog = { kind: 'requestRescheduleConfirm' };
  }

  /** Asks the clinic to find another time (status REQUEST_RESCHEDULE). */
  async requestReschedule(): Promise<void> {
    await this.run((bookingKey) => this.deps.api.requestReschedule(bookingKey, {}), 'requestedReschedule');
  }

  /** Confirms the appointment (status CONFIRMED). */
  async confirm(): Promise<void> {
    await this.run((bookingKey) => this.deps.api.confirm(bookingKey), 'confirmed');
  }

  /** Stops e-mails about this booking. */
  async unsubscribe(): Promise<void> {
    await this.run((bookingKey) => this.deps.api.unsubscribe(bookingKey), 'unsubscribed');
  }

  /**
   * The booking flow's last step for a move: books the new time and frees the old one in one
   * server transaction. One Idempotency-Key per distinct request, so a retry after a lost answer
   * moves nothing twice. On success the summary is the moved booking.
   */
  async reschedule(bookingKey: string, request: RescheduleRequest): Promise<RescheduleOutcome> {
    const fingerprint = JSON.stringify([bookingKey, request]);
    if (this.rescheduleKey?.request !== fingerprint) this.rescheduleKey = { request: fingerprint, key: this.deps.newIdempotencyKey() };
    const key = this.rescheduleKey.key;
    this.busy = true;
    this.dialog = null;
    try {
      const summary = await this.deps.api.reschedule(bookingKey, request, key);
      runInAction(() => {
        this.rescheduleKey = null;
        this.bookingKey = bookingKey;
        this.summary = summary;
        this.loadState = 'loaded';
        this.busy = false;
        this.notice = 'moved';
      });
      return 'done';
    } catch (error) {
      const answered = error instanceof ApiError && error.kind === 'http';
      runInAction(() => {
        this.busy = false;
        // Only an answered refusal ends this attempt; a lost answer is retried with the same key.
        if (answered) this.rescheduleKey = null;
      });
      if (error instanceof ApiError && error.status === 409 && (error.code === 'slot_taken' || error.code === 'hold_expired'))
        return 'slot_taken';
      const refused = changeRefusal(error);
      if (refused) {
        runInAction(() => {
          this.dialog = { kind: 'rescheduleNotAllowed', reason: refused.reason, priorMinutes: refused.priorMinutes };
        });
        return 'not_allowed';
      }
      runInAction(() => {
        this.dialog = { kind: 'error', message: serverMessage(error) };
      });
      return 'failed';
    }
  }

  /** The appointment page of a booking (inside /iframe when the flow runs embedded). */
  appointmentUrl(bookingKey: string): string {
    const path = `/appointments/${encodeURIComponent(bookingKey)}`;
    return isEmbedded(this.deps.navigator().currentUrl()) ? paths.embedded(path) : path;
  }

  // ------------------------------------------------------------------------------------------
  // Consent forms

  async loadConsentForms(): Promise<void> {
    const bookingKey = this.bookingKey;
    if (!bookingKey) return;
    const generation = this.generation;
    this.consentState = 'loading';
    try {
      const answer = await this.deps.api.consentForms(bookingKey);
      if (generation !== this.generation) return;
      runInAction(() => {
        this.consentForms = answer.appointmentConsentForms;
        this.consentState = 'loaded';
        if (
          answer.notifyPatient &&
          this.unsignedConsentForms.length > 0 &&
          this.dialog === null &&
          !this.consentNoticeShown.has(bookingKey)
        ) {
          this.consentNoticeShown.add(bookingKey);
          this.dialog = { kind: 'consentNotification' };
        }
      });
    } catch {
      runInAction(() => {
        if (generation === this.generation) this.consentState = 'error';
      });
    }
  }

  openConsent(formId: string): void {
    const form = this.consentForms.find((candidate) => candidate.id === formId);
    if (!form) return;
    this.notice = null;
    this.signedName = form.signedName ?? '';
    this.agreed = form.signed;
    this.consentProblem = null;
    this.dialog = { kind: 'consent', formId };
  }

  setSignedName(name: string): void {
    this.signedName = name;
    if (this.consentProblem === 'name' && name.trim()) this.consentProblem = null;
  }

  setAgreed(agreed: boolean): void {
    this.agreed = agreed;
    if (this.consentProblem === 'agree' && agreed) this.consentProblem = null;
  }

  /** Signs the open form with the typed name; nothing is sent without a name and the agreement. */
  async signConsent(): Promise<boolean> {
    const form = this.openConsentForm;
    const bookingKey = this.bookingKey;
    if (!form || !bookingKey || this.busy) return false;
    const name = this.signedName.trim();
    if (!name) {
      this.consentProblem = 'name';
      return false;
    }
    if (!this.agreed) {
      this.consentProblem = 'agree';
      return false;
    }
    this.busy = true;
    try {
      const signed = await this.deps.api.signConsentForm(bookingKey, form.id, { signedName: name, agreed: true });
      runInAction(() => {
        this.consentForms = this.consentForms.map((candidate) => (candidate.id === signed.id ? signed : candidate));
        this.busy = false;
        this.dialog = null;
        this.notice = 'consentSigned';
      });
      return true;
    } catch (error) {
      this.failed(error);
      return false;
    }
  }

  // ------------------------------------------------------------------------------------------
  // Patient details change request

  openDetailsChange(): void {
    this.notice = null;
    this.details = { firstName: '', lastName: '', dateOfBirth: '', email: '', contactNumber: '', postcode: '', note: '' };
    this.detailsEmpty = false;
    this.dialog = { kind: 'detailsChange' };
  }

  setDetail(field: DetailsField, value: string): void {
    this.details[field] = value;
    this.detailsEmpty = false;
  }

  /** Sends the changed details; the success or error modal follows (spec point 8). */
  async submitDetailsChange(): Promise<boolean> {
    const bookingKey = this.bookingKey;
    if (!bookingKey || this.busy) return false;
    const body: DetailsChangeRequest = {};
    for (const field of DETAILS_FIELDS) {
      const value = this.details[field].trim();
      if (value) body[field] = value;
    }
    if (Object.keys(body).length === 0) {
      this.detailsEmpty = true;
      return false;
    }
    this.busy = true;
    try {
      await this.deps.api.detailsChangeRequest(bookingKey, body);
      runInAction(() => {
        this.busy = false;
        this.dialog = { kind: 'detailsChangeSuccess' };
      });
      return true;
    } catch (error) {
      runInAction(() => {
        this.busy = false;
        this.dialog = { kind: 'detailsChangeError', message: serverMessage(error) };
      });
      return false;
    }
  }

  /** From the error modal back to the form, with what was typed. */
  backToDetailsChange(): void {
    this.dialog = { kind: 'detailsChange' };
  }

  // ------------------------------------------------------------------------------------------

  private async run(
    call: (bookingKey: string) => Promise<AppointmentSummary>,
    notice: NonNullable<AppointmentStore['notice']>,
  ): Promise<void> {
    const bookingKey = this.bookingKey;
    if (!bookingKey || this.busy) return;
    this.busy = true;
    this.notice = null;
    try {
      const summary = await call(bookingKey);
      runInAction(() => {
        this.summary = summary;
        this.busy = false;
        this.dialog = null;
        this.notice = notice;
      });
    } catch (error) {
      this.failed(error);
    }
  }

  /** A failed action: 401 went to sign-in already; anything else opens the error dialog. */
  private failed(error: unknown): void {
    runInAction(() => {
      this.busy = false;
      if (error instanceof ApiError && error.status === 401) {
        this.dialog = null;
        return;
      }
      const refused = changeRefusal(error);
      this.dialog = refused
        ? { kind: 'rescheduleNotAllowed', reason: refused.reason, priorMinutes: refused.priorMinutes }
        : { kind: 'error', message: serverMessage(error) };
    });
  }

  private goToDeny(status: AppointmentStatus): void {
    this.navigate(`${paths.deny()}?status=${encodeURIComponent(status)}`, true);
  }

  /** Navigates inside the current layout (/iframe stays /iframe). */
  private navigate(target: string, replace = false): void {
    const navigator = this.deps.navigator();
    navigator.navigate(isEmbedded(navigator.currentUrl()) ? paths.embedded(target) : target, replace ? { replace: true } : undefined);
  }
}

/** The appointment page's store, built once per visit (RootStore.featureStore). */
export function appointmentStoreOf({ root, client, window, navigator }: FeatureStoreContext): AppointmentStore {
  return new AppointmentStore({
    api: createAppointmentsApi(client),
    ensureSignedIn: (bookingKey, type) => root.patientAccess.ensureSignedIn(bookingKey, type),
    navigator,
    newIdempotencyKey: () => randomUuid(window.crypto),
  });
}
