import { makeAutoObservable, observableRef, runInAction } from 'mobx';
import type { ConsentForm } from '@contract/api/appointments';
import type { AppointmentsApi } from '../../api/appointments-api';
import type { LoadState } from '../../platform/load-state';
import type { AppointmentPageState } from './appointment-dialog';

/** The appointment's consent forms: the list, the notification, and reading and signing one. */
export class AppointmentConsent {
  consentForms: ConsentForm[] = [];
  consentState: LoadState = 'idle';
  signedName = '';
  agreed = false;
  /** Shown in the consent dialog when the name or the agreement is missing. */
  consentProblem: 'name' | 'agree' | null = null;

  private readonly page: AppointmentPageState;
  private readonly api: Pick<AppointmentsApi, 'consentForms' | 'signConsentForm'>;
  /** Whether the page's load started now is still its latest (Loader.current): an answer for an earlier booking is ignored. */
  private readonly pageLoad: () => () => boolean;
  /** Bookings whose consent notification was shown this visit (it opens once, not on every return). */
  private readonly consentNoticeShown = new Set<string>();

  constructor(page: AppointmentPageState, api: Pick<AppointmentsApi, 'consentForms' | 'signConsentForm'>, pageLoad: () => () => boolean) {
    this.page = page;
    this.api = api;
    this.pageLoad = pageLoad;
    makeAutoObservable<this, 'page' | 'api' | 'pageLoad' | 'consentNoticeShown'>(this, {
      page: false,
      api: false,
      pageLoad: false,
      consentNoticeShown: false,
      consentForms: observableRef,
    });
  }

  get openConsentForm(): ConsentForm | null {
    const dialog = this.page.dialog;
    if (dialog?.kind !== 'consent') return null;
    return this.consentForms.find((form) => form.id === dialog.formId) ?? null;
  }

  get unsignedConsentForms(): ConsentForm[] {
    return this.consentForms.filter((form) => !form.signed);
  }

  async loadConsentForms(): Promise<void> {
    const page = this.page;
    const bookingKey = page.bookingKey;
    if (!bookingKey) return;
    const isCurrent = this.pageLoad();
    this.consentState = 'loading';
    try {
      const answer = await this.api.consentForms(bookingKey);
      if (!isCurrent()) return;
      runInAction(() => {
        this.consentForms = answer.appointmentConsentForms;
        this.consentState = 'loaded';
        if (
          answer.notifyPatient &&
          this.unsignedConsentForms.length > 0 &&
          page.dialog === null &&
          !this.consentNoticeShown.has(bookingKey)
        ) {
          this.consentNoticeShown.add(bookingKey);
          page.dialog = { kind: 'consentNotification' };
        }
      });
    } catch {
      runInAction(() => {
        if (isCurrent()) this.consentState = 'error';
      });
    }
  }

  openConsent(formId: string): void {
    const form = this.consentForms.find((candidate) => candidate.id === formId);
    if (!form) return;
    this.page.notice = null;
    this.signedName = form.signedName ?? '';
    this.agreed = form.signed;
    this.consentProblem = null;
    this.page.dialog = { kind: 'consent', formId };
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
    const page = this.page;
    const form = this.openConsentForm;
    const bookingKey = page.bookingKey;
    if (!form || !bookingKey || page.busy) return false;
    const name = this.signedName.trim();
    if (!name) {
      this.consentProblem = 'name';
      return false;
    }
    if (!this.agreed) {
      this.consentProblem = 'agree';
      return false;
    }
    page.busy = true;
    try {
      const signed = await this.api.signConsentForm(bookingKey, form.id, { signedName: name, agreed: true });
      runInAction(() => {
        this.consentForms = this.consentForms.map((candidate) => (candidate.id === signed.id ? signed : candidate));
        page.busy = false;
        page.dialog = null;
        page.notice = 'consentSigned';
      });
      return true;
    } catch (error) {
      page.failed(error);
      return false;
    }
  }

  /** Another booking opened: its forms are not loaded yet. */
  reset(): void {
    this.consentForms = [];
    this.consentState = 'idle';
  }
}
