import { makeAutoObservable, runInAction } from 'mobx';
import type { AppointmentsApi } from '../../api/appointments-api';
import { paths } from '../../paths';
import { changeRefusal, type AppointmentPageState } from './appointment-dialog';

/** The questionnaire type a cancellation goes through when the provider requires one. */
export const CANCEL_QUESTIONNAIRE_TYPE = 'CANCEL_APPOINTMENT_PATIENT';

/** Cancelling the appointment: the server's check, the yes/no, the reason dialog and the call. */
export class AppointmentCancellation {
  cancelReason = '';
  cancelNote = '';
  cancelReasonMissing = false;

  private readonly page: AppointmentPageState;
  private readonly api: Pick<AppointmentsApi, 'canChange' | 'cancel'>;

  constructor(page: AppointmentPageState, api: Pick<AppointmentsApi, 'canChange' | 'cancel'>) {
    this.page = page;
    this.api = api;
    makeAutoObservable<this, 'page' | 'api'>(this, { page: false, api: false });
  }

  get cancelReasons(): string[] {
    return this.page.summary?.cancelReasons.map((reason) => reason.label) ?? [];
  }

  /**
   * Cancel: the server says whether a change is allowed. If not, the information dialog names
   * the prior-minutes limit; if so, the yes/no confirmation opens.
   */
  async startCancel(): Promise<void> {
    const page = this.page;
    const bookingKey = page.bookingKey;
    if (!bookingKey || page.busy) return;
    page.busy = true;
    page.notice = null;
    try {
      const answer = await this.api.canChange(bookingKey, 'CANCEL');
      runInAction(() => {
        page.busy = false;
        page.dialog = answer.canChange ? { kind: 'cancelConfirm' } : { kind: 'cancelNotAllowed', priorMinutes: answer.priorMinutes };
      });
    } catch (error) {
      page.failed(error);
    }
  }

  /**
   * Yes on the confirmation: the questionnaire when the provider requires one, else the reason
   * dialog when reasons are configured, else the cancellation itself.
   */
  async confirmCancel(): Promise<void> {
    const page = this.page;
    const summary = page.summary;
    if (!summary || !page.bookingKey) return;
    if (summary.cancelQuestionnaireRequired) {
      page.dialog = null;
      const query = `bookingKey=${encodeURIComponent(page.bookingKey)}&type=${CANCEL_QUESTIONNAIRE_TYPE}`;
      page.navigate(`${paths.questionnaires()}?${query}`);
      return;
    }
    if (this.cancelReasons.length > 0) {
      this.cancelReason = '';
      this.cancelNote = '';
      this.cancelReasonMissing = false;
      page.dialog = { kind: 'cancelReason' };
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
    const page = this.page;
    const bookingKey = page.bookingKey;
    if (!bookingKey || page.busy) return false;
    const reasons = this.cancelReasons;
    if (reasons.length > 0 && !reasons.includes(this.cancelReason)) {
      this.cancelReasonMissing = true;
      return false;
    }
    const note = this.cancelNote.trim();
    page.busy = true;
    try {
      const summary = await this.api.cancel(bookingKey, {
        ...(reasons.length > 0 ? { reason: { label: this.cancelReason } } : {}),
        ...(note ? { note } : {}),
      });
      runInAction(() => {
        page.summary = summary;
        page.busy = false;
        page.dialog = null;
        page.notice = 'cancelled';
      });
      return true;
    } catch (error) {
      const refused = changeRefusal(error);
      if (refused) {
        runInAction(() => {
          page.busy = false;
          page.dialog = { kind: 'cancelNotAllowed', priorMinutes: refused.priorMinutes };
        });
        return false;
      }
      page.failed(error);
      return false;
    }
  }
}
