import { makeAutoObservable, runInAction } from 'mobx';
import type { WaitlistClinicChoice, WaitlistStatus } from '@contract/api/waitlist';
import type { AppointmentsApi } from '../../api/appointments-api';

/**
 * The appointment page's "Want an earlier time?" (docs/rules/waitlist.md): whether the booking
 * waits for an earlier time, and joining or leaving the list.
 */
export class AppointmentWaitlist {
  status: WaitlistStatus | null = null;
  /** Where an earlier time may be: the booking's clinic, or its region (sent with joining). */
  clinics: WaitlistClinicChoice = 'same';
  saving = false;
  failed = false;
  private readonly api: Pick<AppointmentsApi, 'waitlist' | 'joinWaitlist' | 'leaveWaitlist'>;

  constructor(api: Pick<AppointmentsApi, 'waitlist' | 'joinWaitlist' | 'leaveWaitlist'>) {
    this.api = api;
    makeAutoObservable<this, 'api'>(this, { api: false });
  }

  /** Shown while the booking waits, or may start waiting. */
  get shown(): boolean {
    return this.status !== null && (this.status.waiting || this.status.canWait);
  }

  async load(bookingKey: string): Promise<void> {
    try {
      const status = await this.api.waitlist(bookingKey);
      runInAction(() => {
        this.status = status;
        this.clinics = status.clinics;
      });
    } catch {
      // Not offered when it cannot be read: the rest of the page does not depend on it.
      runInAction(() => (this.status = null));
    }
  }

  async change(bookingKey: string, wait: boolean): Promise<void> {
    if (this.saving) return;
    this.saving = true;
    this.failed = false;
    try {
      const status = wait ? await this.api.joinWaitlist(bookingKey, this.clinics) : await this.api.leaveWaitlist(bookingKey);
      runInAction(() => {
        this.status = status;
        this.clinics = status.clinics;
      });
    } catch {
      runInAction(() => (this.failed = true));
    } finally {
      runInAction(() => (this.saving = false));
    }
  }

  /** Chooses where; while waiting, the list is told at once (the place in the order stays). */
  async choose(bookingKey: string, clinics: WaitlistClinicChoice): Promise<void> {
    this.clinics = clinics;
    if (this.status?.waiting === true) await this.change(bookingKey, true);
  }

  reset(): void {
    this.status = null;
    this.failed = false;
  }
}
