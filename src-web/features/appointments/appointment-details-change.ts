import { makeAutoObservable, runInAction } from 'mobx';
import type { DetailsChangeRequest } from '@contract/api/appointments';
import type { AppointmentsApi } from '../../api/appointments-api';
import type { AppointmentPageState } from './appointment-dialog';
import { refusalMessage } from '../../api/refusal';

/** The fields of the patient details change request (every one optional; at least one). */
export const DETAILS_FIELDS = ['firstName', 'lastName', 'dateOfBirth', 'email', 'contactNumber', 'postcode', 'note'] as const;
export type DetailsField = (typeof DETAILS_FIELDS)[number];

/** The patient details change request: the form, its success and its error dialog. */
export class AppointmentDetailsChange {
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

  private readonly page: AppointmentPageState;
  private readonly api: Pick<AppointmentsApi, 'detailsChangeRequest'>;

  constructor(page: AppointmentPageState, api: Pick<AppointmentsApi, 'detailsChangeRequest'>) {
    this.page = page;
    this.api = api;
    makeAutoObservable<this, 'page' | 'api'>(this, { page: false, api: false });
  }

  openDetailsChange(): void {
    this.page.notice = null;
    this.details = { firstName: '', lastName: '', dateOfBirth: '', email: '', contactNumber: '', postcode: '', note: '' };
    this.detailsEmpty = false;
    this.page.dialog = { kind: 'detailsChange' };
  }

  setDetail(field: DetailsField, value: string): void {
    this.details[field] = value;
    this.detailsEmpty = false;
  }

  /** Sends the changed details; the success or error modal follows. */
  async submitDetailsChange(): Promise<boolean> {
    const page = this.page;
    const bookingKey = page.bookingKey;
    if (!bookingKey || page.busy) return false;
    const body: DetailsChangeRequest = {};
    for (const field of DETAILS_FIELDS) {
      const value = this.details[field].trim();
      if (value) body[field] = value;
    }
    if (Object.keys(body).length === 0) {
      this.detailsEmpty = true;
      return false;
    }
    page.busy = true;
    try {
      await this.api.detailsChangeRequest(bookingKey, body);
      runInAction(() => {
        page.busy = false;
        page.dialog = { kind: 'detailsChangeSuccess' };
      });
      return true;
    } catch (error) {
      runInAction(() => {
        page.busy = false;
        page.dialog = { kind: 'detailsChangeError', message: refusalMessage(error) };
      });
      return false;
    }
  }

  /** From the error modal back to the form, with what was typed. */
  backToDetailsChange(): void {
    this.page.dialog = { kind: 'detailsChange' };
  }
}
