import { makeAutoObservable, observableRef, runInAction } from 'mobx';
import type { BookingRequestSummary } from '@contract/api/booking-requests';
import { createBookingRequestsApi, type BookingRequestsApi } from '../../api/booking-requests-api';
import { Loader, type LoadState } from '../../platform/load-state';
import type { FeatureStoreContext } from '../../stores/root-store';
import type { PatientSubject } from '../../stores/session-store';
import { loadSignedInSummary } from '../../platform/signed-in-summary';
import { patientAccessStoreOf } from '../patient-access/public';
import { isSignInNeeded, refusalMessage } from '../../api/refusal';

/** The one dialog open on the booking-request page. */
export type BookingRequestDialog =
  | { kind: 'cancelConfirm' }
  /** Several referrals: the attachments modal lists them. */
  | { kind: 'attachments' }
  /** The booking-info button's text. */
  | { kind: 'bookingInfo' }
  /** The server's message, or '' for the default text. */
  | { kind: 'error'; message: string };

export interface BookingRequestStoreDeps {
  api: BookingRequestsApi;
  /** The authenticated check (PatientAccessStore.ensureSignedIn). */
  ensureSignedIn: (bookingKey: string, type: PatientSubject) => Promise<boolean>;
  /** Whether the provider lets patients download their referral (app config bookingRequestsDownloadReferralEnabled). */
  downloadReferralEnabled: () => boolean;
}

/**
 * The booking-request page (docs/rules/appointments.md#booking-requests): status, exams and clinic,
 * patient details, referrals, booking information, and cancel with confirmation.
 */
export class BookingRequestStore {
  bookingKey: string | null = null;
  summary: BookingRequestSummary | null = null;
  readonly loader = new Loader();
  dialog: BookingRequestDialog | null = null;
  busy = false;
  /** The request was cancelled during this visit (the status line says so). */
  cancelled = false;

  private readonly deps: BookingRequestStoreDeps;

  constructor(deps: BookingRequestStoreDeps) {
    this.deps = deps;
    makeAutoObservable<this, 'deps'>(this, { deps: false, loader: false, summary: observableRef });
  }

  get loadState(): LoadState {
    return this.loader.state;
  }

  get canCancel(): boolean {
    return this.summary?.status === 'BOOKED';
  }

  /** Referral links, when the provider allows downloads. */
  get referrals(): { id: string; fileName: string; href: string }[] {
    const summary = this.summary;
    if (!summary || !this.deps.downloadReferralEnabled()) return [];
    return summary.referrals.map((referral) => ({
      id: referral.id,
      fileName: referral.fileName,
      href: this.deps.api.fileUrl(referral.downloadUrl),
    }));
  }

  /** Signs in when needed, then loads the request. */
  async open(bookingKey: string): Promise<void> {
    if (this.bookingKey !== bookingKey) {
      this.summary = null;
      this.cancelled = false;
    }
    this.bookingKey = bookingKey;
    this.dialog = null;
    await loadSignedInSummary(
      this.loader,
      { signIn: () => this.deps.ensureSignedIn(bookingKey, 'BOOKING_REQUEST'), summary: () => this.deps.api.summary(bookingKey) },
      { loaded: (summary) => (this.summary = summary) },
    );
  }

  dispose(): void {
    this.loader.dispose();
  }

  openCancel(): void {
    if (this.canCancel) this.dialog = { kind: 'cancelConfirm' };
  }

  openAttachments(): void {
    this.dialog = { kind: 'attachments' };
  }

  openBookingInfo(): void {
    if (this.summary?.bookingInfoHtml) this.dialog = { kind: 'bookingInfo' };
  }

  closeDialog(): void {
    this.dialog = null;
  }

  /** Yes on the confirmation: the request becomes CANCELED. */
  async cancel(): Promise<boolean> {
    const bookingKey = this.bookingKey;
    if (!bookingKey || this.busy) return false;
    this.busy = true;
    try {
      const summary = await this.deps.api.cancel(bookingKey);
      runInAction(() => {
        this.summary = summary;
        this.busy = false;
        this.dialog = null;
        this.cancelled = true;
      });
      return true;
    } catch (error) {
      runInAction(() => {
        this.busy = false;
        this.dialog = isSignInNeeded(error) ? null : { kind: 'error', message: refusalMessage(error) };
      });
      return false;
    }
  }
}

/** The booking-request page's store, built once per visit (RootStore.featureStore). */
export function bookingRequestStoreOf({ root, client }: FeatureStoreContext): BookingRequestStore {
  return new BookingRequestStore({
    api: createBookingRequestsApi(client),
    ensureSignedIn: (bookingKey, type) => root.featureStore(patientAccessStoreOf).ensureSignedIn(bookingKey, type),
    downloadReferralEnabled: () => root.config.app.bookingRequestsDownloadReferralEnabled,
  });
}
