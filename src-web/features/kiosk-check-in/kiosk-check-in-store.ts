import { makeAutoObservable, runInAction } from 'mobx';
import type { AppointmentItem, AppointmentSummary } from '@contract/api/appointments';
import type { CheckInChecklist } from '@contract/api/check-in-checklist';
import { KIOSK_LOOKAHEAD_MINUTES, type CheckInIdentityRequest, type CheckInIdentityResponse } from '@contract/api/kiosks';
import { bookingKeyFromCode } from '@contract/booking-code';
import type { OtpChannel } from '@contract/api/patient-access';
import type { AppointmentsApi } from '../../api/appointments-api';
import type { CheckInApi } from '../../api/check-in-api';
import { ApiError } from '../../api/client';
import type { KioskApi } from './kiosk-api';
import type { PatientAccessApi } from '../../api/patient-access-api';
import type { QuestionnairesApi } from '../../api/questionnaires-api';
import { localDate } from '../../platform/dates';
import { isKioskNotEnrolled } from './kiosk-device-store';
import { dateFromParts, dateOfBirthProblem, digitsOnly, type DateOfBirthProblem, type DateParts } from './kiosk-identity';
import { checkInEach, outcomeOf, pollUntilCheckedIn } from './kiosk-check-in-run';
import { KioskFinishStore } from './kiosk-finish-store';

/**
 * One patient's check-in at the kiosk (docs/rules/kiosk.md#kiosk-check-in-in-the-web-app): last
 * name and date of birth, or a scanned booking code and date of birth
 * (docs/rules/kiosk.md#identify-by-scanning), then the one-time code for the one booking found (purpose APPOINTMENT),
 * then confirm today's appointments, check in, and follow the hand-off. The booking key stays in
 * this store, never in the URL.
 */

/**
 * The /check-in steps. After identity: consent (unsigned forms), questionnaires (due
 * before the visit), feedback (giveFeedback and a FEEDBACK questionnaire unanswered), each only
 * when there is something to do, then confirm.
 */
export type KioskStep =
  'verify-otp' | 'consent' | 'questionnaires' | 'feedback' | 'confirm' | 'processing' | 'success' | 'complete' | 'error';
export const KIOSK_STEPS: readonly KioskStep[] = [
  'verify-otp',
  'consent',
  'questionnaires',
  'feedback',
  'confirm',
  'processing',
  'success',
  'complete',
  'error',
];

/** The steps between identity and confirm, in order ('start' is identity itself). */
const FINISH_ORDER = ['start', 'consent', 'questionnaires', 'feedback'] as const;
type FinishPoint = (typeof FINISH_ORDER)[number];

export type DisabledReason = NonNullable<CheckInIdentityResponse['disabledReason']>;

/** Why the identity check did not lead on (shown on the kiosk home, nothing about anyone leaked). */
export type IdentityProblem =
  { kind: 'notFound' } | { kind: 'disabled'; reason: DisabledReason } | { kind: 'tooMany'; message: string } | { kind: 'failed' };

export type OtpProblem = 'format' | 'wrong' | 'expired' | 'slowDown' | 'failed';

/** A scanned code that is not a booking code (a foreign QR code, a misread). */
export type ScanProblem = 'foreign';

/** What the error step says beside message.check_in_error. */
export type ErrorReason = 'multiple' | 'notSamePatient' | 'signIn' | 'appointments' | 'checkIn';

export interface KioskCheckInDeps {
  kiosk: KioskApi;
  patientAccess: PatientAccessApi;
  appointments: AppointmentsApi;
  checkIn: CheckInApi;
  /** The questionnaires due before the visit (the finish steps). */
  questionnaires: Pick<QuestionnairesApi, 'forAppointment'>;
  /** The kiosk's local today (YYYY-MM-DD): a date of birth cannot be later. */
  today(): string;
  /** Seconds between code resends (app config). */
  resendSeconds(): number;
  /** The app config's giveFeedback: ask an unanswered FEEDBACK questionnaire before confirming. */
  giveFeedback(): boolean;
  /** A kiosk call said the kiosk is not enrolled (revoked). */
  onKioskRevoked(): void;
  pollMs?: number;
}

const OTP_PATTERN = /^\d{6}$/;

export class KioskCheckInStore {
  lastName = '';
  dateOfBirth: DateParts = { day: '', month: '', year: '' };
  /** After the first submit, field problems show. */
  identityTouched = false;
  looking = false;
  identityProblem: IdentityProblem | null = null;

  /** The booking key of a scanned booking code: the kiosk asks the date of birth for it (kiosk-code-identity.tsx). */
  scannedBookingKey: string | null = null;
  scanProblem: ScanProblem | null = null;

  step: KioskStep | null = null;
  bookingKey: string | null = null;
  /** The appointments checked in here (for the checklist after it). */
  checkedInSlugs: string[] = [];
  feedbackAnswered = true;

  code = '';
  otpProblem: OtpProblem | null = null;
  verifying = false;
  destination = '';
  resendSeconds = 0;

  summary: AppointmentSummary | null = null;
  loadingAppointments = false;
  checkingIn = false;
  errorReason: ErrorReason | null = null;
  /** The server's own words for a refused check-in, shown under the error. */
  errorDetail: string | null = null;

  /** Consent forms and questionnaires finished at the kiosk before confirm. */
  readonly finish: KioskFinishStore;

  private channel: OtpChannel | null = null;
  private countdown: ReturnType<typeof setInterval> | null = null;
  private stopPolling: (() => void) | null = null;

  constructor(private readonly deps: KioskCheckInDeps) {
    this.finish = new KioskFinishStore({ appointments: deps.appointments, questionnaires: deps.questionnaires });
    makeAutoObservable<KioskCheckInStore, 'deps' | 'channel' | 'countdown' | 'stopPolling'>(this, {
      deps: false,
      finish: false,
      channel: false,
      countdown: false,
      stopPolling: false,
      loadChecklist: false,
    });
  }

  get lastNameMissing(): boolean {
    return this.lastName.trim() === '';
  }

  get dateOfBirthProblem(): DateOfBirthProblem | null {
    return dateOfBirthProblem(this.dateOfBirth, this.deps.today());
  }

  /** Today's appointments of the booking that can still be checked in, in time order. */
  get appointmentsToday(): AppointmentItem[] {
    const summary = this.summary;
    if (!summary) return [];
    const now = new Date();
    const today = localDate(now, summary.clinic.timeZone);
    const lookaheadEnd = now.getTime() + KIOSK_LOOKAHEAD_MINUTES * 60_000;
    // As the server finds them (src-server/modules/kiosks/repository.ts): today's, or starting soon after midnight.
    const due = (startsAt: Date) =>
      localDate(startsAt, summary.clinic.timeZone) === today || (startsAt.getTime() >= now.getTime() && startsAt.getTime() <= lookaheadEnd);
    return summary.appointments.filter((item) => ['BOOKED', 'CONFIRMED'].includes(item.status) && due(new Date(item.startsAt)));
  }

  setLastName(value: string): void {
    this.lastName = value;
    this.identityProblem = null;
  }

  setDatePart(part: keyof DateParts, value: string): void {
    this.dateOfBirth = { ...this.dateOfBirth, [part]: digitsOnly(value, part === 'year' ? 4 : 2) };
    this.identityProblem = null;
  }

  /**
   * A camera or keyboard-wedge scan (kiosk-scan): a booking code asks the date of birth for its
   * booking; anything else says it is not a booking code and changes nothing else.
   */
  scannedText(text: string): void {
    const bookingKey = bookingKeyFromCode(text);
    if (bookingKey === null) this.scanProblem = 'foreign';
    else this.scannedCode(bookingKey);
  }

  /** A booking code was read: a fresh "confirm your date of birth" for it (never someone else's typing kept). */
  scannedCode(bookingKey: string): void {
    if (this.looking || this.step !== null) return;
    this.scannedBookingKey = bookingKey;
    this.scanProblem = null;
    this.lastName = '';
    this.dateOfBirth = { day: '', month: '', year: '' };
    this.identityTouched = false;
    this.identityProblem = null;
  }

  /** "Not your booking? Start again": back to the welcome form, the code forgotten. */
  forgetScannedCode(): void {
    if (this.looking) return;
    this.scannedBookingKey = null;
    this.scanProblem = null;
    this.dateOfBirth = { day: '', month: '', year: '' };
    this.identityTouched = false;
    this.identityProblem = null;
  }

  dismissScanProblem(): void {
    this.scanProblem = null;
  }

  /** The identity check; one booking found goes on to the one-time code. Resolves true when the step changed. */
  async submitIdentity(): Promise<boolean> {
    this.identityTouched = true;
    const dateOfBirth = dateFromParts(this.dateOfBirth);
    if (this.looking || this.lastNameMissing || this.dateOfBirthProblem !== null || dateOfBirth === null) return false;
    return this.checkIdentity({ lastName: this.lastName.trim(), dateOfBirth });
  }

  /** The identity check for a scanned booking code and the date of birth typed for it; then as the name path. */
  async submitCodeIdentity(): Promise<boolean> {
    this.identityTouched = true;
    const bookingKey = this.scannedBookingKey;
    const dateOfBirth = dateFromParts(this.dateOfBirth);
    if (this.looking || bookingKey === null || this.dateOfBirthProblem !== null || dateOfBirth === null) return false;
    return this.checkIdentity({ bookingKey, dateOfBirth });
  }

  private async checkIdentity(request: CheckInIdentityRequest): Promise<boolean> {
    const { dateOfBirth } = request;
    this.looking = true;
    this.identityProblem = null;
    try {
      const found = await this.deps.kiosk.identity(request);
      return await this.afterIdentity(found, dateOfBirth);
    } catch (error) {
      if (isKioskNotEnrolled(error)) this.deps.onKioskRevoked();
      else
        runInAction(() => {
          this.identityProblem =
            error instanceof ApiError && error.status === 429 ? { kind: 'tooMany', message: error.message } : { kind: 'failed' };
        });
      return false;
    } finally {
      runInAction(() => {
        this.looking = false;
      });
    }
  }

  private async afterIdentity(found: CheckInIdentityResponse, dateOfBirth: string): Promise<boolean> {
    const keys = found.appointmentBookingKeys;
    if (keys.length === 0) {
      runInAction(() => (this.identityProblem = { kind: 'notFound' }));
      return false;
    }
    if (keys.length > 1 || !found.samePatient) {
      this.toError(found.samePatient ? 'multiple' : 'notSamePatient');
      return true;
    }
    if (found.disabledReason !== null) {
      const reason = found.disabledReason;
      runInAction(() => (this.identityProblem = { kind: 'disabled', reason }));
      return false;
    }
    runInAction(() => {
      this.bookingKey = keys[0] ?? null;
      this.feedbackAnswered = found.feedbackQuestionnaireAnswered;
    });
    return this.signIn(dateOfBirth);
  }

  /** Date of birth for the booking (purpose APPOINTMENT): the server sends the one-time code when the provider asks for one. */
  private async signIn(dateOfBirth: string): Promise<boolean> {
    const bookingKey = this.bookingKey;
    if (bookingKey === null) return false;
    try {
      const answer = await this.deps.patientAccess.authenticate({ bookingKey, type: 'APPOINTMENT', dateOfBirth });
      if (!answer.otpRequired) {
        await this.signedIn();
        return true;
      }
      // The spec: by SMS where the provider offers it (the server lists SMS only when it can send one), else by e-mail.
      this.channel = answer.otpChannels.includes('SMS') ? 'SMS' : answer.otpChannels.includes('EMAIL') ? 'EMAIL' : null;
      if (this.channel === null) {
        this.toError('signIn');
        return true;
      }
      await this.sendCode();
      return true;
    } catch {
      this.toError('signIn');
      return true;
    }
  }

  private async sendCode(): Promise<void> {
    if (this.channel === null) return;
    const sent = await this.deps.patientAccess.sendOtp(this.channel);
    runInAction(() => {
      this.destination = sent.destination;
      this.code = '';
      this.otpProblem = null;
      this.step = 'verify-otp';
    });
    this.startCountdown(sent.resendAfterSeconds > 0 ? sent.resendAfterSeconds : this.deps.resendSeconds());
  }

  setCode(value: string): void {
    this.code = digitsOnly(value, 6);
    this.otpProblem = null;
  }

  /** Sends the code again (after the countdown). */
  async resend(): Promise<void> {
    if (this.resendSeconds > 0 || this.verifying) return;
    try {
      await this.sendCode();
    } catch (error) {
      runInAction(() => (this.otpProblem = error instanceof ApiError && error.status === 429 ? 'slowDown' : 'failed'));
    }
  }

  async verifyCode(): Promise<void> {
    if (this.verifying) return;
    if (!OTP_PATTERN.test(this.code)) {
      this.otpProblem = 'format';
      return;
    }
    this.verifying = true;
    this.otpProblem = null;
    try {
      await this.deps.patientAccess.verifyOtp(this.code);
      await this.signedIn();
    } catch (error) {
      const code = error instanceof ApiError && error.kind === 'http' ? error.code : null;
      runInAction(() => {
        if (code === 'otp_invalid') this.otpProblem = 'wrong';
        else if (code === 'otp_expired') this.otpProblem = 'expired';
        else if (code === 'too_many_requests') this.otpProblem = 'slowDown';
        else if (code === 'max_attempts_reached' || code === 'unauthorized') this.toError('signIn');
        else this.otpProblem = 'failed';
        if (code === 'otp_invalid' || code === 'otp_expired') this.code = '';
      });
    } finally {
      runInAction(() => (this.verifying = false));
    }
  }

  /** Signed in: what can be finished here first (consent forms, questionnaires, feedback), then the appointments to confirm. */
  private async signedIn(): Promise<void> {
    this.stopCountdown();
    await this.finishAfter('start');
  }

  /** The first finish step after `done` that has something to do, else confirm. */
  private async finishAfter(done: FinishPoint): Promise<void> {
    const bookingKey = this.bookingKey;
    const pending = (step: FinishPoint) => FINISH_ORDER.indexOf(step) > FINISH_ORDER.indexOf(done);
    let next: KioskStep = 'confirm';
    if (bookingKey !== null && pending('consent') && (await this.finish.loadConsents(bookingKey, this.lastName.trim()))) next = 'consent';
    else if (bookingKey !== null && pending('questionnaires') && (await this.finish.loadQuestionnaires(bookingKey)))
      next = 'questionnaires';
    else if (pending('feedback') && this.deps.giveFeedback() && !this.feedbackAnswered) next = 'feedback';
    if (next === 'confirm') await this.toConfirm();
    else runInAction(() => (this.step = next));
  }

  /** "I agree and sign" with the drawn PNG: the next form, or on once all are signed. A refusal stays here with its message. */
  async signConsent(signaturePng: string): Promise<void> {
    if (this.step !== 'consent') return;
    if (await this.finish.sign(signaturePng)) await this.finishAfter('consent');
  }

  /** Leaves the current form for the desk. */
  async skipConsent(): Promise<void> {
    if (this.step === 'consent' && this.finish.skipConsent()) await this.finishAfter('consent');
  }

  /** The current questionnaire was answered, or left for the desk. */
  async questionnaireDone(answered: boolean): Promise<void> {
    if (this.step === 'questionnaires' && this.finish.nextQuestionnaire(answered)) await this.finishAfter('questionnaires');
  }

  /** The feedback step is over (answered, closed or skipped): on to confirm. */
  async feedbackDone(): Promise<void> {
    if (this.step !== 'feedback') return;
    this.feedbackAnswered = true;
    await this.finishAfter('feedback');
  }

  private async toConfirm(): Promise<void> {
    runInAction(() => {
      this.step = 'confirm';
      this.loadingAppointments = true;
    });
    const bookingKey = this.bookingKey;
    try {
      if (bookingKey === null) throw new Error('no booking');
      const summary = await this.deps.appointments.summary(bookingKey);
      runInAction(() => (this.summary = summary));
      if (this.appointmentsToday.length === 0) this.toError('appointments');
    } catch {
      this.toError('appointments');
    } finally {
      runInAction(() => (this.loadingAppointments = false));
    }
  }

  /** The big Check in button: every appointment of today, then success, polling or the error step. */
  async confirm(): Promise<void> {
    const bookingKey = this.bookingKey;
    const slugs = this.appointmentsToday.map((item) => item.slug);
    if (this.checkingIn || bookingKey === null || slugs.length === 0) return;
    this.checkingIn = true;
    this.checkedInSlugs = slugs;
    try {
      const statuses = await checkInEach(this.deps.kiosk, bookingKey, slugs);
      const outcome = outcomeOf(statuses);
      if (outcome === 'success') runInAction(() => (this.step = 'success'));
      else if (outcome === 'failed') this.toError('checkIn');
      else {
        runInAction(() => (this.step = 'processing'));
        this.stopPolling = pollUntilCheckedIn({
          api: this.deps.checkIn,
          bookingKey,
          statuses,
          pollMs: this.deps.pollMs,
          done: (checkedIn) => {
            this.stopPolling = null;
            if (checkedIn) runInAction(() => (this.step = 'complete'));
            else this.toError('checkIn');
          },
        });
      }
    } catch (error) {
      if (isKioskNotEnrolled(error)) this.deps.onKioskRevoked();
      else this.toError('checkIn', error instanceof ApiError && error.kind === 'http' && error.status < 500 ? error.message : null);
    } finally {
      runInAction(() => (this.checkingIn = false));
    }
  }

  /** What is still to do before the scan, for the whole booking (docs/rules/check-in.md#checklist). */
  readonly loadChecklist = (): Promise<CheckInChecklist> => {
    const slug = this.checkedInSlugs[0];
    if (this.bookingKey === null || slug === undefined) return Promise.reject(new Error('nothing was checked in'));
    return this.deps.checkIn.checklist(this.bookingKey, slug);
  };

  /** Stops timers (the page leaves). */
  dispose(): void {
    this.stopCountdown();
    this.stopPolling?.();
    this.stopPolling = null;
  }

  private toError(reason: ErrorReason, detail: string | null = null): void {
    this.stopCountdown();
    runInAction(() => {
      this.errorReason = reason;
      this.errorDetail = detail;
      this.step = 'error';
    });
  }

  private startCountdown(seconds: number): void {
    this.stopCountdown();
    runInAction(() => (this.resendSeconds = seconds));
    this.countdown = setInterval(() => {
      runInAction(() => {
        this.resendSeconds = Math.max(0, this.resendSeconds - 1);
      });
      if (this.resendSeconds === 0) this.stopCountdown();
    }, 1000);
  }

  private stopCountdown(): void {
    if (this.countdown !== null) clearInterval(this.countdown);
    this.countdown = null;
  }
}
