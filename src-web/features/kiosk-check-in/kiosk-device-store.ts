import { makeAutoObservable, runInAction } from 'mobx';
import { ENROLLMENT_CODE_PATTERN, type KioskIdentity } from '@contract/api/kiosks';
import type { KioskBridgeIdentity } from '@contract/kiosk-bridge';
import { ApiError } from '../../api/client';
import type { KioskApi } from './kiosk-api';
import { readKioskCookie, writeKioskCookie } from '../../platform/kiosk-cookies';

/**
 * The kiosk itself (docs/rules/kiosk.md#enrollment): whether it is enrolled, and enrolling it
 * with a one-time code from the staff kiosk page. Its token is an HttpOnly cookie the page never
 * sees; the page keeps only the kiosk cookies' names (kioskIdentity, patientKioskIdentity).
 */

/** What the kiosk home shows: asking the server, the enrollment screen, the welcome, or the server cannot be reached. */
export type KioskScreen = 'loading' | 'enroll' | 'welcome' | 'unavailable';
/** Why the last enrollment failed: the code's shape, a code the server refused, or no answer. */
export type EnrollProblem = 'format' | 'rejected' | 'failed';

/** True for the answer a kiosk call gets when the kiosk holds no valid token (never enrolled, or revoked). */
export function isKioskNotEnrolled(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401 && error.code === 'kiosk_not_enrolled';
}

export class KioskDeviceStore {
  screen: KioskScreen = 'loading';
  identity: KioskIdentity | null = null;
  /** A kiosk call said the token stopped working: the enrollment screen says to ask at the desk. */
  revoked = false;
  code = '';
  codeTouched = false;
  enrolling = false;
  problem: EnrollProblem | null = null;

  /** Inside the kiosk app: it enrolls from its provisioning file, never with a code typed here. */
  inApp = false;

  constructor(
    private readonly api: KioskApi,
    private readonly doc: Document,
    /** The kiosk app's bridge identity (platform/kiosk-bridge-client.ts); null in a plain browser. */
    private readonly appIdentity: () => Promise<KioskBridgeIdentity | null> = async () => null,
  ) {
    makeAutoObservable<KioskDeviceStore, 'api' | 'doc' | 'appIdentity'>(this, { api: false, doc: false, appIdentity: false });
  }

  /** The code as the server reads it: trimmed, upper case, dash optional. */
  get codeValid(): boolean {
    return ENROLLMENT_CODE_PATTERN.test(this.code.trim().toUpperCase());
  }

  /** The clinic's name for patients (the kiosk's name when it has no clinic). */
  get patientName(): string {
    return this.identity?.clinicName ?? this.identity?.name ?? '';
  }

  /**
   * Who this kiosk is: the kiosk app's bridge when it runs inside the app (its main process holds
   * the token and shows its own screen when it is revoked), else the server (GET /api/kiosk/me).
   */
  async load(): Promise<void> {
    // Asked again on every visit of the kiosk home: a revoked kiosk must not keep its welcome.
    if (this.identity === null) this.screen = 'loading';
    const fromApp = await this.appIdentity();
    if (fromApp !== null) {
      runInAction(() => (this.inApp = true));
      if (fromApp.enrolled) this.enrolled({ name: fromApp.name ?? '', clinicSlug: fromApp.clinicSlug, clinicName: fromApp.clinicName });
      else runInAction(() => this.markRevoked());
      return;
    }
    try {
      const identity = await this.api.me();
      this.enrolled(identity);
    } catch (error) {
      runInAction(() => {
        if (isKioskNotEnrolled(error)) {
          // The kiosk's name cookie outlives its token: then it was enrolled once and has been revoked.
          if (this.identity !== null || readKioskCookie(this.doc, 'kioskIdentity') !== null) this.markRevoked();
          else this.screen = 'enroll';
        } else if (this.identity === null) this.screen = 'unavailable';
      });
    }
  }

  setCode(value: string): void {
    this.code = value;
    this.problem = null;
  }

  touchCode(): void {
    this.codeTouched = true;
  }

  /** Enrolls with the typed code; a code of the wrong shape is never sent. */
  async enroll(): Promise<boolean> {
    this.codeTouched = true;
    if (this.enrolling) return false;
    if (!this.codeValid) {
      this.problem = 'format';
      return false;
    }
    this.enrolling = true;
    this.problem = null;
    try {
      const identity = await this.api.enroll(this.code.trim().toUpperCase());
      this.enrolled(identity);
      return true;
    } catch (error) {
      runInAction(() => {
        // Wrong, used and expired codes all get the same 400 (docs/rules/kiosk.md#enrollment).
        this.problem = error instanceof ApiError && error.status === 400 ? 'rejected' : 'failed';
      });
      return false;
    } finally {
      runInAction(() => {
        this.enrolling = false;
      });
    }
  }

  /** The enrollment sheet's QR code, scanned: its text is the code, enrolled as if typed. */
  async enrollScanned(text: string): Promise<boolean> {
    this.setCode(text.trim());
    this.codeTouched = true;
    return this.enroll();
  }

  /** A kiosk call answered 401 kiosk_not_enrolled: back to the enrollment screen. */
  markRevoked(): void {
    this.identity = null;
    this.revoked = true;
    this.code = '';
    this.codeTouched = false;
    this.problem = null;
    this.screen = 'enroll';
  }

  private enrolled(identity: KioskIdentity): void {
    // The kiosk's name, and the name patients see (expiry 2030-12-31, path /).
    writeKioskCookie(this.doc, 'kioskIdentity', identity.name);
    writeKioskCookie(this.doc, 'patientKioskIdentity', identity.clinicName ?? identity.name);
    runInAction(() => {
      this.identity = identity;
      this.revoked = false;
      this.code = '';
      this.codeTouched = false;
      this.screen = 'welcome';
    });
  }
}
