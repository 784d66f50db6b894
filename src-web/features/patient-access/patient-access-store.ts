import { localDate } from '../../platform/dates';
import type { FeatureStoreContext } from '../../stores/root-store';
import { parseRoleTranslations, type PatientAccessOptions } from './patient-access-options';
import type { PatientSignInStore } from './patient-sign-in-store';
import type { PatientSubject } from '../../stores/session-store';
import { isSignInNeeded } from '../../api/refusal';

/**
 * Whether the browser keeps cookies: the flag, then a test cookie written like the session cookie
 * (SameSite=None; Secure; Partitioned, so it works inside a provider's iframe), or a plain one.
 */
export function browserCookiesEnabled(win: Window): boolean {
  if (!win.navigator.cookieEnabled) return false;
  const doc = win.document;
  const name = 'pp_cookie_check';
  const attempt = (attributes: string) => {
    try {
      doc.cookie = `${name}=1; path=/${attributes}`;
      const kept = doc.cookie.split(';').some((part) => part.trim() === `${name}=1`);
      doc.cookie = `${name}=; path=/; max-age=0${attributes}`;
      return kept;
    } catch {
      return false;
    }
  };
  return (win.isSecureContext && attempt('; SameSite=None; Secure; Partitioned')) || attempt('; SameSite=Lax');
}

/**
 * Patient access as the rest of the app sees it: the authenticated check pages call
 * before they load a booking (ensureSignedIn), logout, and the sign-in form's store, whose code
 * comes with the /authentication page so the booking home does not download it.
 */
export class PatientAccessStore {
  readonly options: PatientAccessOptions;
  private flow: PatientSignInStore | null = null;

  constructor(options: PatientAccessOptions) {
    this.options = options;
  }

  /**
   * The sign-in form's store, created once. The page passes the class it imported, so the
   * class is in the page's chunk and this module only knows its type.
   */
  signIn(Store: new (options: PatientAccessOptions) => PatientSignInStore): PatientSignInStore {
    this.flow ??= new Store(this.options);
    return this.flow;
  }

  /**
   * The authenticated check for pages that show a booking (docs/rules/patient-access.md#authenticated-check). Resolves true when
   * this browser is signed in to that booking; otherwise sends the browser to /authentication
   * (with returnUrl = the current URL, the booking key and type) and resolves false.
   * Never rejects: a check that cannot be made at all also leads to the sign-in page, which
   * says what went wrong when the patient tries.
   */
  async ensureSignedIn(bookingKey: string, type: PatientSubject): Promise<boolean> {
    this.options.session.setSubject(bookingKey, type);
    try {
      const identity = await this.options.api.session({ bookingKey, type });
      this.options.session.markAuthenticated(identity);
      this.applyTranslations(identity.roleTranslations);
      return true;
    } catch (error) {
      // A 401 already went to /authentication through the client's 401 rule (authCheck).
      if (!isSignInNeeded(error)) this.options.session.reauthenticate();
      return false;
    }
  }

  /** Ends the patient's session on the server and here. */
  async logout(): Promise<void> {
    try {
      await this.options.api.logout();
    } finally {
      this.options.session.forget();
    }
  }

  private applyTranslations(json: string): void {
    const overlay = parseRoleTranslations(json);
    if (overlay) this.options.applyTranslations(overlay);
  }
}

/**
 * The app's one PatientAccessStore (RootStore.featureStore): created by the first page that checks
 * a session or signs in, so its code is not in the booking home's entry chunk.
 */
export function patientAccessStoreOf({ root, window: win, navigator }: FeatureStoreContext): PatientAccessStore {
  return new PatientAccessStore({
    api: root.api.patientAccess,
    session: root.session,
    navigator,
    otpResendSeconds: () => root.config.app.otpResendSeconds,
    today: () => localDate(root.clock()),
    cookiesEnabled: () => browserCookiesEnabled(win),
    applyTranslations: (overlay) => root.i18n.instance?.addResourceBundle(root.i18n.locale, 'translation', overlay, true, true),
    scrollToTop: () => win.scrollTo?.(0, 0),
    staffMayBook: () => root.staffMayBook(),
  });
}
