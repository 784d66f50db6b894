import { makeAutoObservable, runInAction } from 'mobx';
import type { RescheduleRequest } from '@contract/api/appointments';
import type { AppointmentsApi } from '../../api/appointments-api';
import { ApiError } from '../../api/client';
import { paths } from '../../paths';
import type { PortalNavigator } from '../../stores/session-store';
import { changeRefusal, isEmbedded, type AppointmentPageState } from './appointment-dialog';
import { refusalMessage } from '../../api/refusal';

export type RescheduleContext = RescheduleRequest['context'];

/** How a reschedule attempt from the booking flow ended. */
export type RescheduleOutcome = 'done' | 'slot_taken' | 'not_allowed' | 'failed';

export interface ReschedulingDeps {
  api: Pick<AppointmentsApi, 'canChange' | 'requestReschedule' | 'reschedule'>;
  navigator: () => PortalNavigator;
  /** A fresh UUID for the reschedule's Idempotency-Key header. */
  newIdempotencyKey: () => string;
}

/**
 * Moving the appointment: the reschedule or change check that opens the booking flow, the
 * flow's last step that moves the booking, and asking the clinic to reschedule.
 */
export class AppointmentRescheduling {
  private readonly page: AppointmentPageState;
  private readonly deps: ReschedulingDeps;
  private rescheduleKey: { request: string; key: string } | null = null;

  constructor(page: AppointmentPageState, deps: ReschedulingDeps) {
    this.page = page;
    this.deps = deps;
    makeAutoObservable<this, 'page' | 'deps' | 'rescheduleKey'>(this, { page: false, deps: false, rescheduleKey: false });
  }

  /**
   * Reschedule (RESCHEDULED) or change (CHANGED): the server check first; a refusal shows its
   * message (walk-in, cancelled, prior minutes, other); otherwise the booking flow opens with
   * the booking's exams and clinic chosen.
   */
  async startReschedule(context: RescheduleContext): Promise<void> {
    const page = this.page;
    const bookingKey = page.bookingKey;
    const summary = page.summary;
    if (!bookingKey || !summary || page.busy) return;
    page.busy = true;
    page.notice = null;
    try {
      const answer = await this.deps.api.canChange(bookingKey, 'RESCHEDULE');
      runInAction(() => {
        page.busy = false;
        if (!answer.canChange) {
          page.dialog = { kind: 'rescheduleNotAllowed', reason: answer.reason ?? 'OTHER', priorMinutes: answer.priorMinutes };
          return;
        }
        page.navigate(this.bookingFlowUrl(context));
      });
    } catch (error) {
      page.failed(error);
    }
  }

  /**
   * Where the booking flow starts for a move: the reschedule keeps the exams and opens the
   * times at the booking's clinic (step 1); a change starts at the exam choice (step 0).
   */
  bookingFlowUrl(context: RescheduleContext): string {
    const summary = this.page.summary;
    const params = new URLSearchParams();
    params.set('reschedule', this.page.bookingKey ?? '');
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
    this.page.notice = null;
    this.page.dialog = { kind: 'requestRescheduleConfirm' };
  }

  /** Asks the clinic to find another time (status REQUEST_RESCHEDULE). */
  async requestReschedule(): Promise<void> {
    await this.page.run((bookingKey) => this.deps.api.requestReschedule(bookingKey, {}), 'requestedReschedule');
  }

  /**
   * The booking flow's last step for a move: books the new time and frees the old one in one
   * server transaction. One Idempotency-Key per distinct request, so a retry after a lost answer
   * moves nothing twice. On success the summary is the moved booking.
   */
  async reschedule(bookingKey: string, request: RescheduleRequest): Promise<RescheduleOutcome> {
    const page = this.page;
    const fingerprint = JSON.stringify([bookingKey, request]);
    if (this.rescheduleKey?.request !== fingerprint) this.rescheduleKey = { request: fingerprint, key: this.deps.newIdempotencyKey() };
    const key = this.rescheduleKey.key;
    page.busy = true;
    page.dialog = null;
    try {
      const summary = await this.deps.api.reschedule(bookingKey, request, key);
      runInAction(() => {
        this.rescheduleKey = null;
        page.bookingKey = bookingKey;
        page.summary = summary;
        page.loader.set('loaded');
        page.busy = false;
        page.notice = 'moved';
      });
      return 'done';
    } catch (error) {
      const answered = error instanceof ApiError && error.kind === 'http';
      runInAction(() => {
        page.busy = false;
        // Only an answered refusal ends this attempt; a lost answer is retried with the same key.
        if (answered) this.rescheduleKey = null;
      });
      if (error instanceof ApiError && error.status === 409 && (error.code === 'slot_taken' || error.code === 'hold_expired'))
        return 'slot_taken';
      const refused = changeRefusal(error);
      if (refused) {
        runInAction(() => {
          page.dialog = { kind: 'rescheduleNotAllowed', reason: refused.reason, priorMinutes: refused.priorMinutes };
        });
        return 'not_allowed';
      }
      runInAction(() => {
        page.dialog = { kind: 'error', message: refusalMessage(error) };
      });
      return 'failed';
    }
  }

  /** The appointment page of a booking (inside /iframe when the flow runs embedded). */
  appointmentUrl(bookingKey: string): string {
    const path = paths.appointment(bookingKey);
    return isEmbedded(this.deps.navigator().currentUrl()) ? paths.embedded(path) : path;
  }

  /** Another booking opened: an attempt for the previous one is not retried. */
  forgetKey(): void {
    this.rescheduleKey = null;
  }
}
