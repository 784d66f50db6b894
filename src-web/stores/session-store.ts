import { makeAutoObservable } from 'mobx';
import type { SignInType } from '@contract/api/patient-access';
import { paths } from '../paths';

/** How stores move the browser: the router once it exists, else the location. */
export interface PortalNavigator {
  navigate(to: string, options?: { replace?: boolean }): void;
  /** The current path and query, e.g. /appointments/abc?upload=1. */
  currentUrl(): string;
}

/** What a patient session opens (src-contract/api/patient-access.ts SIGN_IN_TYPES). */
export type PatientSubject = SignInType;

/** Who the session belongs to, as the server confirmed it. */
export interface SessionIdentity {
  bookingKey: string;
  type: PatientSubject;
  /** Role-specific translation overlay, a JSON object as a string. */
  roleTranslations?: string;
}

/**
 * The patient portal link (/appointments/{key}/result/patient?dateOfBirth&otpType) carries the
 * date of birth to prefill and the code channel to preselect: the sign-in page gets them too.
 */
function patientPortalHints(url: string): { dateOfBirth?: string; otpType?: string } {
  const query = new URLSearchParams(url.split('?')[1]?.split('#')[0] ?? '');
  return { dateOfBirth: query.get('dateOfBirth') ?? undefined, otpType: query.get('otpType') ?? undefined };
}

/**
 * Who is signed in. The authentication feature fills it;
 * the shell needs the two reactions to a 401 (docs/rules/patient-access.md#logout-on-401): logout for any call,
 * re-authentication for the authenticated check.
 */
export class SessionStore {
  isAuthenticated = false;
  /** A sign-in request (date of birth or one-time password) is on its way. */
  loading = false;
  /** A one-time password was sent for the current sign-in. */
  otpSent = false;
  /** The booking the patient is working on (set by the authenticated check, kept after a 401). */
  bookingKey: string | null = null;
  type: PatientSubject | null = null;
  /** The server's role-specific translations of the signed-in session ('' when none). */
  roleTranslations = '';

  private readonly navigator: () => PortalNavigator;

  constructor(navigator: () => PortalNavigator) {
    this.navigator = navigator;
    makeAutoObservable<this, 'navigator'>(this, { navigator: false });
  }

  /** Marks the session authenticated, for the booking the server named when it is known. */
  markAuthenticated(identity?: SessionIdentity): void {
    this.isAuthenticated = true;
    this.loading = false;
    if (identity) {
      this.bookingKey = identity.bookingKey;
      this.type = identity.type;
      this.roleTranslations = identity.roleTranslations ?? '';
    }
  }

  /** True when this browser is signed in to exactly that booking. */
  isSignedInTo(bookingKey: string, type: PatientSubject): boolean {
    return this.isAuthenticated && this.bookingKey === bookingKey && this.type === type;
  }

  /** The booking a page needs a session for; used when the session has to be renewed. */
  setSubject(bookingKey: string, type: PatientSubject): void {
    if (this.bookingKey !== bookingKey || this.type !== type) this.isAuthenticated = false;
    this.bookingKey = bookingKey;
    this.type = type;
  }

  setLoading(loading: boolean): void {
    this.loading = loading;
  }

  setOtpSent(sent: boolean): void {
    this.otpSent = sent;
  }

  /** Forgets the signed-in state without going anywhere (the patient logged out). */
  forget(): void {
    this.isAuthenticated = false;
    this.otpSent = false;
    this.roleTranslations = '';
  }

  /**
   * Forgets the signed-in state (a 401 on any call means the server no longer knows us).
   * A patient who was signed in to a booking is sent to sign in again for it and come back
   * (docs/rules/patient-access.md#logout-on-401).
   */
  logout(): void {
    const wasPatient = this.isAuthenticated && this.bookingKey !== null;
    this.forget();
    if (wasPatient) this.goToSignIn();
  }

  /**
   * The session ended during the authenticated check: sign in again and come back
   * (/authentication with the current URL as returnUrl).
   */
  reauthenticate(): void {
    this.isAuthenticated = false;
    this.otpSent = false;
    this.goToSignIn();
  }

  /** /authentication (under /iframe when embedded) with the current URL, booking key and type. */
  private goToSignIn(): void {
    const navigator = this.navigator();
    const current = navigator.currentUrl();
    const embedded = current === '/iframe' || current.startsWith('/iframe/') || current.startsWith('/iframe?');
    const path = embedded ? current.slice('/iframe'.length) || '/' : current;
    if (path === paths.authentication() || path.startsWith(`${paths.authentication()}?`)) return;
    const target = paths.authentication({
      returnUrl: current,
      bookingKey: this.bookingKey ?? undefined,
      type: this.type ?? undefined,
      ...(this.type === 'PATIENT_PORTAL' ? patientPortalHints(path) : {}),
    });
    navigator.navigate(embedded ? paths.embedded(target) : target, { replace: true });
  }
}
