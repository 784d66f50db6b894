import { makeAutoObservable, observableRef, runInAction } from 'mobx';
import type { AppointmentStatus, AppointmentSummary } from '@contract/api/appointments';
import { DENIED_STATUSES } from '@contract/api/appointment-statuses';
import { createAppointmentsApi, type AppointmentsApi } from '../../api/appointments-api';
import { paths } from '../../paths';
import { randomUuid } from '../../platform/uuid';
import { Loader, type LoadState } from '../../platform/load-state';
import type { FeatureStoreContext } from '../../stores/root-store';
import type { PatientSubject, PortalNavigator } from '../../stores/session-store';
import { loadSignedInSummary } from '../../platform/signed-in-summary';
import { AppointmentCancellation } from './appointment-cancellation';
import { AppointmentConsent } from './appointment-consent';
import { AppointmentDayPlan } from './appointment-day-plan';
import { AppointmentWaitlist } from './appointment-waitlist';
import { AppointmentDetailsChange } from './appointment-details-change';
import { changeRefusal, isEmbedded, type AppointmentDialog, type AppointmentNotice, type AppointmentPageState } from './appointment-dialog';
import { AppointmentRescheduling } from './appointment-rescheduling';
import { patientAccessStoreOf } from '../patient-access/public';
import { isSignInNeeded, refusalMessage } from '../../api/refusal';

export { CANCEL_QUESTIONNAIRE_TYPE } from './appointment-cancellation';
export { DETAILS_FIELDS, type DetailsField } from './appointment-details-change';
export type { AppointmentDialog } from './appointment-dialog';
export type { RescheduleContext, RescheduleOutcome } from './appointment-rescheduling';

/** Statuses in which the patient may still cancel, move, confirm or sign (the appointment is live). */
const LIVE_STATUSES: readonly AppointmentStatus[] = ['BOOKED', 'PENDING', 'CONFIRMED', 'REQUEST_RESCHEDULE'];

export interface AppointmentStoreDeps {
  api: AppointmentsApi;
  /** The authenticated check (PatientAccessStore.ensureSignedIn). */
  ensureSignedIn: (bookingKey: string, type: PatientSubject) => Promise<boolean>;
  navigator: () => PortalNavigator;
  /** A fresh UUID for the reschedule's Idempotency-Key header. */
  newIdempotencyKey: () => string;
}

/**
 * The patient's appointment page: the booking's summary and every self-service action with its
 * dialogs. The actions live in one part each (cancellation, rescheduling, consent forms, details
 * change) acting on the state here. Components render what is here and call its actions.
 */
export class AppointmentStore implements AppointmentPageState {
  bookingKey: string | null = null;
  summary: AppointmentSummary | null = null;
  readonly loader = new Loader();
  dialog: AppointmentDialog | null = null;
  /** An action is on its way (buttons are disabled). */
  busy = false;
  /** A short success line after an action (confirmed, unsubscribed, moved…), as a translation choice. */
  notice: AppointmentNotice | null = null;
  /**
   * Changes after every document upload, replace or delete: check-in asks for its readiness again
   * (docs/rules/check-in.md#the-web-app).
   */
  documentsVersion = 0;

  readonly cancellation: AppointmentCancellation;
  readonly rescheduling: AppointmentRescheduling;
  readonly consent: AppointmentConsent;
  readonly detailsChange: AppointmentDetailsChange;
  readonly dayPlan: AppointmentDayPlan;
  readonly waitlist: AppointmentWaitlist;

  private readonly deps: AppointmentStoreDeps;

  constructor(deps: AppointmentStoreDeps) {
    this.deps = deps;
    this.cancellation = new AppointmentCancellation(this, deps.api);
    this.rescheduling = new AppointmentRescheduling(this, deps);
    this.consent = new AppointmentConsent(this, deps.api, () => this.loader.current());
    this.detailsChange = new AppointmentDetailsChange(this, deps.api);
    this.dayPlan = new AppointmentDayPlan(deps.api);
    this.waitlist = new AppointmentWaitlist(deps.api);
    makeAutoObservable<this, 'deps'>(this, {
      deps: false,
      loader: false,
      cancellation: false,
      rescheduling: false,
      consent: false,
      detailsChange: false,
      dayPlan: false,
      waitlist: false,
      summary: observableRef,
    });
  }

  // ------------------------------------------------------------------------------------------
  // Derived state

  get loadState(): LoadState {
    return this.loader.state;
  }

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

  // ------------------------------------------------------------------------------------------
  // Opening the page

  /**
   * Opens the page for a booking: the authenticated check first (sign-in when needed), then the
   * summary. A status the patient cannot use goes to /deny?status=….
   */
  /** After a document changed: the summary again (its required document), and check-in's readiness. */
  async documentsChanged(bookingKey: string): Promise<void> {
    this.documentsVersion += 1;
    await this.open(bookingKey);
  }

  async open(bookingKey: string): Promise<void> {
    if (this.bookingKey !== bookingKey) {
      this.summary = null;
      this.notice = null;
      this.consent.reset();
      this.dayPlan.reset();
      this.waitlist.reset();
      this.rescheduling.forgetKey();
    }
    this.bookingKey = bookingKey;
    this.dialog = null;
    let live = false;
    let shown = false;
    await loadSignedInSummary(
      this.loader,
      { signIn: () => this.deps.ensureSignedIn(bookingKey, 'APPOINTMENT'), summary: () => this.deps.api.summary(bookingKey) },
      {
        loaded: (summary) => {
          if (DENIED_STATUSES.includes(summary.status)) return this.goToDeny(summary.status);
          this.summary = summary;
          shown = true;
          live = LIVE_STATUSES.includes(summary.status);
        },
        // The page stays loading on its way to /deny.
        stateAfter: (summary) => (DENIED_STATUSES.includes(summary.status) ? 'loading' : 'loaded'),
      },
    );
    // The day plan whenever the page shows the booking: on the day, after check-in, it still guides.
    await Promise.all([
      shown ? this.dayPlan.load(bookingKey) : null,
      live ? this.consent.loadConsentForms() : null,
      live ? this.waitlist.load(bookingKey) : null,
    ]);
  }

  /** Signs the open consent form; the day plan then no longer lists it as missing. */
  async signConsent(): Promise<void> {
    const bookingKey = this.bookingKey;
    if ((await this.consent.signConsent()) && bookingKey !== null) await this.dayPlan.load(bookingKey);
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
    this.loader.dispose();
    this.dayPlan.reset();
  }

  closeDialog(): void {
    this.dialog = null;
  }

  clearNotice(): void {
    this.notice = null;
  }

  // ------------------------------------------------------------------------------------------
  // One-call actions

  /** Confirms the appointment (status CONFIRMED). */
  async confirm(): Promise<void> {
    await this.run((bookingKey) => this.deps.api.confirm(bookingKey), 'confirmed');
  }

  /** Stops e-mails about this booking. */
  async unsubscribe(): Promise<void> {
    await this.run((bookingKey) => this.deps.api.unsubscribe(bookingKey), 'unsubscribed');
  }

  async run(call: (bookingKey: string) => Promise<AppointmentSummary>, notice: AppointmentNotice): Promise<void> {
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
  failed(error: unknown): void {
    runInAction(() => {
      this.busy = false;
      if (isSignInNeeded(error)) {
        this.dialog = null;
        return;
      }
      const refused = changeRefusal(error);
      this.dialog = refused
        ? { kind: 'rescheduleNotAllowed', reason: refused.reason, priorMinutes: refused.priorMinutes }
        : { kind: 'error', message: refusalMessage(error) };
    });
  }

  private goToDeny(status: AppointmentStatus): void {
    this.navigate(`${paths.deny()}?status=${encodeURIComponent(status)}`, true);
  }

  /** Navigates inside the current layout (/iframe stays /iframe). */
  navigate(target: string, replace = false): void {
    const navigator = this.deps.navigator();
    navigator.navigate(isEmbedded(navigator.currentUrl()) ? paths.embedded(target) : target, replace ? { replace: true } : undefined);
  }
}

/** The appointment page's store, built once per visit (RootStore.featureStore). */
export function appointmentStoreOf({ root, client, window, navigator }: FeatureStoreContext): AppointmentStore {
  return new AppointmentStore({
    api: createAppointmentsApi(client),
    ensureSignedIn: (bookingKey, type) => root.featureStore(patientAccessStoreOf).ensureSignedIn(bookingKey, type),
    navigator,
    newIdempotencyKey: () => randomUuid(window.crypto),
  });
}
