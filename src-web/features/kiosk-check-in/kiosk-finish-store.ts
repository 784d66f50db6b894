import { makeAutoObservable, observableRef, runInAction } from 'mobx';
import type { ConsentForm } from '@contract/api/appointments';
import type { QuestionnaireItem, QuestionnaireType } from '@contract/api/questionnaires';
import type { AppointmentsApi } from '../../api/appointments-api';
import { ApiError } from '../../api/client';
import type { QuestionnairesApi } from '../../api/questionnaires-api';

/**
 * What the patient can still finish at the kiosk after identity (docs/rules/kiosk.md#finishing-at-the-kiosk):
 * each unsigned consent form, signed with a finger, then each unanswered questionnaire due before
 * the visit. Either can be left for the desk; nothing here sends the patient anywhere else. The
 * check-in store moves between the steps; this store keeps the lists and the signing.
 */

/** The questionnaires a patient answers before the scan: the ones on confirmation and the first pain score. */
export const DUE_BEFORE_VISIT: readonly QuestionnaireType[] = ['REQUIRED_ON_CONFIRMATION', 'PAIN_SCORE_INITIAL'];

export interface KioskFinishDeps {
  appointments: Pick<AppointmentsApi, 'consentForms' | 'signConsentForm' | 'summary'>;
  questionnaires: Pick<QuestionnairesApi, 'forAppointment'>;
}

/** Why the last signature did not go through: the server's words for a refusal, else a default text. */
export type SignProblem = { message: string | null };

export class KioskFinishStore {
  bookingKey: string | null = null;
  /** The name the signature is given under (the booking's patient). */
  signerName = '';
  /** The unsigned forms found after identity, in the provider's order. */
  consentForms: ConsentForm[] = [];
  consentIndex = 0;
  signing = false;
  signProblem: SignProblem | null = null;
  /** Forms left for the desk (the checklist then says to ask there). */
  consentsLeft = 0;

  questionnaires: QuestionnaireItem[] = [];
  questionnaireIndex = 0;
  questionnairesLeft = 0;

  constructor(private readonly deps: KioskFinishDeps) {
    makeAutoObservable<KioskFinishStore, 'deps'>(this, { deps: false, consentForms: observableRef, questionnaires: observableRef });
  }

  get currentForm(): ConsentForm | null {
    return this.consentForms[this.consentIndex] ?? null;
  }

  get currentQuestionnaire(): QuestionnaireItem | null {
    return this.questionnaires[this.questionnaireIndex] ?? null;
  }

  /**
   * Loads the booking's unsigned consent forms and the name to sign with; true when there is one
   * to sign. A failure to load leaves them for the desk (false): check-in goes on.
   */
  async loadConsents(bookingKey: string, fallbackName: string): Promise<boolean> {
    this.bookingKey = bookingKey;
    try {
      const answer = await this.deps.appointments.consentForms(bookingKey);
      const unsigned = answer.appointmentConsentForms.filter((form) => !form.signed);
      let name = fallbackName;
      if (unsigned.length > 0) {
        const patient = (await this.deps.appointments.summary(bookingKey)).patient;
        name = `${patient.firstName} ${patient.lastName}`.trim() || fallbackName;
      }
      runInAction(() => {
        this.consentForms = unsigned;
        this.consentIndex = 0;
        this.consentsLeft = 0;
        this.signProblem = null;
        this.signerName = name;
      });
      return unsigned.length > 0 && name !== '';
    } catch {
      return false;
    }
  }

  /** Signs the current form with the drawn PNG (a data: URL). True when no form is left to sign. */
  async sign(signaturePng: string): Promise<boolean> {
    const form = this.currentForm;
    const bookingKey = this.bookingKey;
    if (this.signing || form === null || bookingKey === null || signaturePng === '') return false;
    this.signing = true;
    this.signProblem = null;
    try {
      await this.deps.appointments.signConsentForm(bookingKey, form.id, { signedName: this.signerName, agreed: true, signaturePng });
      runInAction(() => (this.consentIndex += 1));
      return this.currentForm === null;
    } catch (error) {
      const message = error instanceof ApiError && error.kind === 'http' && error.status < 500 && error.message ? error.message : null;
      runInAction(() => (this.signProblem = { message }));
      return false;
    } finally {
      runInAction(() => (this.signing = false));
    }
  }

  /** Leaves the current form for the desk. True when no form is left. */
  skipConsent(): boolean {
    if (this.signing || this.currentForm === null) return this.currentForm === null;
    this.consentsLeft += 1;
    this.consentIndex += 1;
    this.signProblem = null;
    return this.currentForm === null;
  }

  /** The unanswered questionnaires due before the visit; true when there is one. A failure leaves them for the desk. */
  async loadQuestionnaires(bookingKey: string): Promise<boolean> {
    this.bookingKey = bookingKey;
    try {
      const answer = await this.deps.questionnaires.forAppointment(bookingKey, DUE_BEFORE_VISIT);
      const pending = answer.questionnaires.filter((item) => !item.answered);
      runInAction(() => {
        this.questionnaires = pending;
        this.questionnaireIndex = 0;
        this.questionnairesLeft = 0;
      });
      return pending.length > 0;
    } catch {
      return false;
    }
  }

  /** The current questionnaire was answered (true) or left for the desk (false). True when none is left. */
  nextQuestionnaire(answered: boolean): boolean {
    if (this.currentQuestionnaire === null) return true;
    if (!answered) this.questionnairesLeft += 1;
    this.questionnaireIndex += 1;
    return this.currentQuestionnaire === null;
  }
}
