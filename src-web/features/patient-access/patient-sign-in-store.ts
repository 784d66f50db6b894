import { makeAutoObservable, runInAction } from 'mobx';
import type { OtpChannel } from '@contract/api/patient-access';
import { ApiError } from '../../api/client';
import { paths } from '../../paths';
import { parseRoleTranslations, type PatientAccessOptions } from './patient-access-options';
import {
  CONTACT_NUMBER_PATTERN,
  DEFAULT_OTP_RESEND_SECONDS,
  isCalendarDate,
  isEmbedded,
  maxAttemptsName,
  OTP_PATTERN,
  retryAfterSeconds,
  withSharedFlag,
} from './sign-in-rules';

export {
  CONTACT_NUMBER_PATTERN,
  DEFAULT_OTP_RESEND_SECONDS,
  isCalendarDate,
  maxAttemptsName,
  OTP_PATTERN,
  retryAfterSeconds,
  withSharedFlag,
} from './sign-in-rules';
import type { PatientSubject, SessionStore } from '../../stores/session-store';
import { LatestRun } from '../../platform/load-state';
import { isSignInNeeded, refusalMessage } from '../../api/refusal';

/** What the /authentication page was asked to do (docs/rules/patient-access.md#authentication-page). */
export interface AuthenticationParams {
  /** null when neither the query nor the return URL names a booking. */
  bookingKey: string | null;
  type: PatientSubject;
  /** A same-origin path, already inside /iframe when the page is embedded. */
  returnUrl: string;
  /** Someone opens results shared with them: other wording, shared=true on the return URL. */
  shared: boolean;
  /** Staff sign in for the patient: the texts name "the patient". */
  staffBooking: boolean;
  /** A date of birth to start the form with ('' when none). */
  dateOfBirth: string;
  /** The code channel to preselect (the patient portal link's otpType), when the server offers it. */
  otpChannel?: OtpChannel | null;
  /**
   * A contact opening a share link (shared=true back to /results/shared): the link's token, kept
   * by that page. The date of birth then goes with it to POST /api/patient-access/shared, and the
   * code to the contact (docs/rules/results.md#sharing).
   */
  shareToken?: string | null;
}

/** The sign-in steps: checking an existing session, date of birth, channel choice, code, done. */
export type SignInStep = 'checking' | 'details' | 'channel' | 'code' | 'done';

export type SignInField = 'dateOfBirth' | 'contactNumber' | 'code';
export type SignInProblem = 'required' | 'invalid' | 'future';

/** Why the last attempt failed, as the page words it (docs/rules/patient-access.md#attempts). */
export type SignInError =
  | { kind: 'cookies' }
  | { kind: 'authentication' }
  | { kind: 'otp' }
  | { kind: 'otpExpired' }
  | { kind: 'sessionExpired' }
  | { kind: 'tooManyRequests' }
  /** Too many failed sign-ins from this connection: try again after `seconds` (docs/rules/patient-access.md#attempts). */
  | { kind: 'slowDown'; seconds: number }
  | { kind: 'noChannel' }
  /** Any other answer with the server's own message (shown as text). */
  | { kind: 'server'; message: string };

/**
 * The sign-in form (docs/rules/patient-access.md#sign-in): date of birth with an
 * optional contact number, then a one-time password when the server asks for one. Loaded with
 * the /authentication page (PatientAccessStore#signIn), never on the booking home.
 */
export class PatientSignInStore {
  params: AuthenticationParams | null = null;
  step: SignInStep = 'details';
  dateOfBirth = '';
  contactNumber = '';
  code = '';
  touched: Record<SignInField, boolean> = { dateOfBirth: false, contactNumber: false, code: false };
  error: SignInError | null = null;
  otpChannels: OtpChannel[] = [];
  channel: OtpChannel | null = null;
  /** Where the code went, masked by the server. */
  destination: string | null = null;
  /** Seconds until the code may be sent again (0: now). */
  resendSeconds = 0;
  cookiesEnabled = true;

  private readonly options: PatientAccessOptions;
  private countdown: unknown = null;
  /** Restarted by start()/dispose() so an answer for an earlier sign-in is ignored. */
  private readonly runs = new LatestRun();

  constructor(options: PatientAccessOptions) {
    this.options = options;
    makeAutoObservable<this, 'options' | 'countdown' | 'runs' | 'timers'>(this, {
      options: false,
      countdown: false,
      runs: false,
      timers: false,
    });
  }

  private get session(): SessionStore {
    return this.options.session;
  }

  get loading(): boolean {
    return this.session.loading;
  }

  /** Staff sign a patient in: only for a signed-in staff member; a patient adding the flag keeps the patient texts. */
  get staffBooking(): boolean {
    return (this.params?.staffBooking ?? false) && (this.options.staffMayBook?.() ?? false);
  }

  get shared(): boolean {
    return this.params?.shared ?? false;
  }

  /** The sign-in opens results (APPOINTMENT_RESULTS, PATIENT_PORTAL): the page speaks of results. */
  get results(): boolean {
    return this.params?.type === 'APPOINTMENT_RESULTS' || this.params?.type === 'PATIENT_PORTAL';
  }

  /** Today's local date (the latest date of birth allowed). */
  get today(): string {
    return this.options.today();
  }

  /** A contact signs in with a share link's token: date of birth only, no contact number. */
  get shareLink(): boolean {
    return (this.params?.shareToken ?? null) !== null;
  }

  /** The link names no booking and holds no share: nothing to sign in to. */
  get missingBooking(): boolean {
    return this.params !== null && this.params.bookingKey === null && !this.shareLink;
  }

  problem(field: SignInField): SignInProblem | null {
    switch (field) {
      case 'dateOfBirth': {
        const value = this.dateOfBirth.trim();
        if (!value) return 'required';
        if (!isCalendarDate(value)) return 'invalid';
        return value > this.options.today() ? 'future' : null;
      }
      case 'contactNumber': {
        if (this.shareLink) return null;
        const value = this.contactNumber.trim();
        return value === '' || CONTACT_NUMBER_PATTERN.test(value) ? null : 'invalid';
      }
      case 'code': {
        const value = this.code.trim();
        if (!value) return 'required';
        return OTP_PATTERN.test(value) ? null : 'invalid';
      }
    }
  }

  /** The problem to show next to the field: after it was left or a submit was tried. */
  visibleProblem(field: SignInField): SignInProblem | null {
    return this.touched[field] ? this.problem(field) : null;
  }

  /** Both details valid: the only state in which they are sent. */
  get detailsValid(): boolean {
    return this.problem('dateOfBirth') === null && this.problem('contactNumber') === null;
  }

  /** The first details field with a problem, for the focus move. */
  get firstInvalidDetail(): SignInField | null {
    if (this.problem('dateOfBirth')) return 'dateOfBirth';
    if (this.problem('contactNumber')) return 'contactNumber';
    return null;
  }

  get codeValid(): boolean {
    return this.problem('code') === null;
  }

  setDateOfBirth(value: string): void {
    this.dateOfBirth = value;
  }

  setContactNumber(value: string): void {
    this.contactNumber = value;
  }

  setCode(value: string): void {
    // Pasted codes often carry spaces ("123 456"); they are not part of the code.
    this.code = value.replace(/\s+/g, '');
  }

  setChannel(channel: OtpChannel): void {
    this.channel = channel;
  }

  touch(field: SignInField): void {
    this.touched[field] = true;
  }

  /**
   * Opens a sign-in for the page's parameters. When this browser already holds a session for
   * the booking, goes straight on to the return URL.
   */
  async start(params: AuthenticationParams): Promise<void> {
    this.reset();
    const isCurrent = this.runs.current();
    this.params = params;
    this.dateOfBirth = params.dateOfBirth;
    this.cookiesEnabled = this.options.cookiesEnabled();
    const { bookingKey, type } = params;
    // A share link's session is the contact's, checked by the shared results page itself.
    if (bookingKey === null || this.shareLink) return;
    this.session.setSubject(bookingKey, type);
    this.step = 'checking';
    try {
      const identity = await this.options.api.session({ bookingKey, type }, { authCheck: false });
      if (!isCurrent()) return;
      this.finish(identity);
    } catch {
      runInAction(() => {
        if (isCurrent()) this.step = 'details';
      });
    }
  }

  /** Sends the date of birth (and contact number). Resolves false when nothing was sent or it failed. */
  async submitDetails(): Promise<boolean> {
    this.touched.dateOfBirth = true;
    this.touched.contactNumber = true;
    const params = this.params;
    if (!params || (!params.bookingKey && !params.shareToken) || !this.detailsValid || this.loading) return false;
    this.error = null;
    if (!this.cookiesEnabled) {
      this.error = { kind: 'cookies' };
      return false;
    }
    const isCurrent = this.runs.current();
    const contactNumber = this.contactNumber.trim();
    this.session.setLoading(true);
    try {
      const dateOfBirth = this.dateOfBirth.trim();
      const answer = params.shareToken
        ? await this.options.api.authenticateShared({ shareToken: params.shareToken, dateOfBirth })
        : await this.options.api.authenticate({
            bookingKey: params.bookingKey ?? '',
            type: params.type,
            dateOfBirth,
            ...(contactNumber ? { contactNumber } : {}),
            ...(params.shared ? { shared: true } : {}),
          });
      if (!isCurrent()) return false;
      this.applyTranslations(answer.roleTranslations);
      // The shared sign-in always asks for the code; without one there is nothing to confirm here.
      if (!answer.otpRequired && params.bookingKey) return await this.confirmSession(isCurrent, params.bookingKey, params.type);
      runInAction(() => {
        this.otpChannels = answer.otpChannels;
        const asked = params.otpChannel;
        this.channel = asked && answer.otpChannels.includes(asked) ? asked : (answer.otpChannels[0] ?? null);
        this.session.setOtpSent(false);
      });
      if (answer.otpChannels.length === 0) {
        this.fail({ kind: 'noChannel' });
        return false;
      }
      if (answer.otpChannels.length === 1) return await this.sendOtp();
      runInAction(() => {
        this.step = 'channel';
        this.session.setLoading(false);
      });
      return true;
    } catch (error) {
      if (isCurrent()) this.failWith(error, 'details');
      return false;
    }
  }

  /** Sends (or resends) the one-time password on the chosen channel. */
  async sendOtp(): Promise<boolean> {
    const channel = this.channel;
    if (!channel || this.resendSeconds > 0) return false;
    const isCurrent = this.runs.current();
    this.error = null;
    this.session.setLoading(true);
    try {
      const sent = await this.options.api.sendOtp(channel);
      if (!isCurrent()) return false;
      runInAction(() => {
        this.destination = sent.destination;
        this.step = 'code';
        this.session.setOtpSent(true);
        this.session.setLoading(false);
      });
      this.startCountdown(sent.resendAfterSeconds > 0 ? sent.resendAfterSeconds : this.resendDelay());
      return true;
    } catch (error) {
      if (!isCurrent()) return false;
      if (error instanceof ApiError && error.status === 429 && error.code === 'too_many_requests') this.startCountdown(this.resendDelay());
      this.failWith(error, 'otp-send');
      return false;
    }
  }

  /** Checks the code; on success the patient goes on to the return URL. */
  async verifyOtp(): Promise<boolean> {
    this.touched.code = true;
    if (!this.codeValid || this.loading) return false;
    const isCurrent = this.runs.current();
    this.error = null;
    this.session.setLoading(true);
    try {
      const identity = await this.options.api.verifyOtp(this.code.trim());
      if (!isCurrent()) return false;
      this.finish(identity);
      return true;
    } catch (error) {
      if (isCurrent()) this.failWith(error, 'otp-verify');
      return false;
    }
  }

  /** Back from the code or channel step to the date of birth (another channel, a typo). */
  backToDetails(): void {
    this.step = 'details';
    this.code = '';
    this.touched.code = false;
    this.error = null;
    this.stopCountdown();
  }

  /** Stops the countdown and forgets answers still on their way (the page unmounts). */
  dispose(): void {
    this.runs.cancel();
    this.stopCountdown();
    this.session.setLoading(false);
  }

  private reset(): void {
    this.dispose();
    this.params = null;
    this.step = 'details';
    this.dateOfBirth = '';
    this.contactNumber = '';
    this.code = '';
    this.touched = { dateOfBirth: false, contactNumber: false, code: false };
    this.error = null;
    this.otpChannels = [];
    this.channel = null;
    this.destination = null;
    this.session.setOtpSent(false);
  }

  private resendDelay(): number {
    const seconds = this.options.otpResendSeconds();
    return Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds) : DEFAULT_OTP_RESEND_SECONDS;
  }

  private get timers(): NonNullable<PatientAccessOptions['timers']> {
    return (
      this.options.timers ?? {
        setInterval: (fn, ms) => setInterval(fn, ms),
        clearInterval: (handle) => clearInterval(handle as ReturnType<typeof setInterval>),
      }
    );
  }

  private startCountdown(seconds: number): void {
    this.stopCountdown();
    this.resendSeconds = seconds;
    this.countdown = this.timers.setInterval(() => {
      runInAction(() => {
        this.resendSeconds = Math.max(0, this.resendSeconds - 1);
        if (this.resendSeconds === 0) this.stopCountdown();
      });
    }, 1000);
  }

  private stopCountdown(): void {
    if (this.countdown !== null) {
      this.timers.clearInterval(this.countdown);
      this.countdown = null;
    }
    this.resendSeconds = 0;
  }

  /**
   * No one-time password needed: the session is authenticated now. Asking the authenticated
   * check once proves the browser kept the session cookie (an iframe may block it).
   */
  private async confirmSession(isCurrent: () => boolean, bookingKey: string, type: PatientSubject): Promise<boolean> {
    try {
      const identity = await this.options.api.session({ bookingKey, type }, { authCheck: false });
      if (!isCurrent()) return false;
      this.finish(identity);
      return true;
    } catch (error) {
      if (!isCurrent()) return false;
      if (isSignInNeeded(error)) this.fail({ kind: 'cookies' }, 'details');
      else this.failWith(error, 'details');
      return false;
    }
  }

  /** Signed in: remember who, then the return URL, scrolled to the top. */
  private finish(identity: { bookingKey: string; type: PatientSubject; roleTranslations: string }): void {
    const params = this.params;
    this.stopCountdown();
    // A contact's session is not the booking's: the patient's booking key is no subject of this browser.
    this.session.markAuthenticated(params?.shareToken ? undefined : identity);
    this.applyTranslations(identity.roleTranslations);
    this.step = 'done';
    this.error = null;
    if (!params) return;
    this.options.navigator().navigate(params.shared ? withSharedFlag(params.returnUrl) : params.returnUrl, { replace: true });
    this.options.scrollToTop();
  }

  private applyTranslations(json: string): void {
    const overlay = parseRoleTranslations(json);
    if (overlay) this.options.applyTranslations(overlay);
  }

  private fail(error: SignInError, step?: SignInStep): void {
    this.error = error;
    if (step) this.step = step;
    this.session.setLoading(false);
  }

  /** Turns a failed call into the page's state. */
  private failWith(error: unknown, during: 'details' | 'otp-send' | 'otp-verify'): void {
    const apiError = error instanceof ApiError ? error : null;
    if (apiError?.status === 429 && apiError.code === 'max_attempts_reached') {
      this.session.setLoading(false);
      this.goToDeny(`maxAttempts=${encodeURIComponent(maxAttemptsName(apiError.details))}`);
      return;
    }
    // The share was revoked or ran out (410): the deny page says which (docs/rules/results.md#sharing).
    if (apiError?.status === 410 && (apiError.code === 'share_revoked' || apiError.code === 'share_expired')) {
      this.session.setLoading(false);
      this.goToDeny(apiError.code === 'share_revoked' ? 'revoked=true' : 'resultsExpired=true');
      return;
    }
    const code = apiError?.kind === 'http' ? apiError.code : null;
    switch (code) {
      case 'authentication_failed':
        return this.fail({ kind: 'authentication' }, 'details');
      case 'otp_invalid':
        this.code = '';
        return this.fail({ kind: 'otp' }, 'code');
      case 'otp_expired':
        this.code = '';
        return this.fail({ kind: 'otpExpired' }, 'code');
      case 'too_many_requests': {
        // Checking an answer too soon after failures from this connection: wait and try again.
        if (during !== 'otp-send') {
          const seconds = retryAfterSeconds(apiError?.details) ?? 1;
          return this.fail({ kind: 'slowDown', seconds }, during === 'details' ? undefined : 'code');
        }
        // A code sent moments ago still works: stay on (or move to) the code step.
        return this.fail({ kind: 'tooManyRequests' }, 'code');
      }
      case 'unauthorized':
        // Right after a date of birth was accepted, a missing session means the cookie was not kept.
        if (during === 'otp-send' && !this.session.otpSent) return this.fail({ kind: 'cookies' }, 'details');
        this.code = '';
        return this.fail({ kind: 'sessionExpired' }, 'details');
    }
    const serverMessage = refusalMessage(apiError);
    if (serverMessage) return this.fail({ kind: 'server', message: serverMessage });
    this.fail({ kind: during === 'details' ? 'authentication' : 'otp' });
  }

  /** /deny with its query (inside /iframe when embedded). */
  private goToDeny(query: string): void {
    const navigator = this.options.navigator();
    const target = `${paths.deny()}?${query}`;
    navigator.navigate(isEmbedded(navigator.currentUrl()) ? paths.embedded(target) : target, { replace: true });
  }
}
