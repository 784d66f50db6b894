import type { BootstrapConfig } from '@contract/api/config';
import { createAssetsApi, type AssetsApi } from '../api/assets-api';
import { createBookingApi, type BookingApi } from '../api/booking-api';
import type { ApiClient } from '../api/client';
import { createConfigApi, type ConfigApi } from '../api/config-api';
import { createPatientAccessApi, type PatientAccessApi } from '../api/patient-access-api';
import { reportStepToWindow } from '../features/booking/booking-step-reporter';
import { BookingStore } from '../features/booking/booking-store';
import { ConfigStore } from './config-store';
import { ContentStore } from './content-store';
import { I18nStore } from './i18n-store';
import { randomUuid } from '../platform/uuid';
import { SessionStore, type PortalNavigator } from './session-store';
import { UiStore } from './ui-store';
import { StaffStore } from './staff-store';

/** What a feature store is built from (RootStore.featureStore). */
export interface FeatureStoreContext {
  root: RootStore;
  client: ApiClient;
  window: Window;
  navigator: () => PortalNavigator;
}

/** Builds one feature store; the function itself is its key, so each store exists once. */
export type FeatureStoreFactory<T> = (context: FeatureStoreContext) => T;

export interface RootStoreOptions {
  config: BootstrapConfig;
  client: ApiClient;
  window: Window;
  /** Injected so tests can fix the date (the footer's copyright year). */
  clock?: () => Date;
}

/** Who may book for a patient (?staffBooking=true); the server applies the same rule. */
const STAFF_BOOKING_ROLES = ['staff', 'admin'] as const;

/** window.localStorage or sessionStorage; null where the browser blocks storage (reading it throws). */
function storageOf(win: Window, name: 'localStorage' | 'sessionStorage'): Storage | null {
  try {
    return win[name];
  } catch {
    return null;
  }
}

/** Owns every store and the typed API modules; components reach it through useStores(). */
export class RootStore {
  readonly api: { config: ConfigApi; assets: AssetsApi; booking: BookingApi; patientAccess: PatientAccessApi };
  readonly config: ConfigStore;
  readonly ui: UiStore;
  readonly session: SessionStore;
  readonly i18n: I18nStore;
  readonly content: ContentStore;
  readonly booking: BookingStore;
  readonly staff: StaffStore;
  /** The app's clock (tests fix it). */
  readonly clock: () => Date;

  private navigator: PortalNavigator;
  private readonly client: ApiClient;
  private readonly win: Window;
  private readonly features = new Map<FeatureStoreFactory<unknown>, unknown>();

  constructor(options: RootStoreOptions) {
    const win = options.window;
    this.client = options.client;
    this.win = win;
    this.api = {
      config: createConfigApi(options.client),
      assets: createAssetsApi(options.client),
      booking: createBookingApi(options.client),
      patientAccess: createPatientAccessApi(options.client),
    };
    // Until the router exists, navigation is a full page load.
    this.navigator = {
      navigate: (to) => win.location.assign(to),
      currentUrl: () => `${win.location.pathname}${win.location.search}`,
    };
    this.config = new ConfigStore(options.config);
    this.clock = options.clock ?? (() => new Date());
    this.ui = new UiStore(win, this.clock);
    this.session = new SessionStore(() => this.navigator);
    this.i18n = new I18nStore(options.config.app.locale, this.api.assets, win.document);
    this.content = new ContentStore(this.api.config);
    this.booking = new BookingStore({
      api: this.api.booking,
      clock: this.clock,
      flags: () => this.config.radiology,
      weekStart: () => this.i18n.weekStart,
      locator: { browser: win, kiosk: () => this.ui.kiosk },
      reportStep: reportStepToWindow(win),
      newIdempotencyKey: () => randomUuid(win.crypto),
      staffMayBook: () => this.staffMayBook(),
    });
    this.staff = new StaffStore({
      app: () => this.config.app,
      // Signing in and out, and MSAL behind it, are chunks of their own (docs/identity.md#the-browser).
      loadActions: async (store) =>
        (await import('../features/staff-access/staff-session')).createStaffSession(store, { client: options.client, win }),
      localStorage: storageOf(win, 'localStorage'),
      sessionStorage: storageOf(win, 'sessionStorage'),
    });
    options.client.setSessionHandlers({
      logout: () => this.session.logout(),
      reauthenticate: () => this.session.reauthenticate(),
    });
    // The kiosk never shows the check: its pages say to ask at reception instead.
    options.client.setCaptchaHandlers({
      enabled: () => !this.ui.kiosk,
      checking: (active) => this.ui.setCheckingRequest(active),
    });
  }

  /**
   * A store whose code loads with its page (a lazy chunk: appointment, booking request), so the
   * booking home's entry chunk does not carry it. Created on first use, then kept for the visit.
   */
  featureStore<T>(factory: FeatureStoreFactory<T>): T {
    if (!this.features.has(factory))
      this.features.set(factory, factory({ root: this, client: this.client, window: this.win, navigator: () => this.navigator }));
    return this.features.get(factory) as T;
  }

  /** True while staff (or an admin) are signed in: only then may ?staffBooking=true book for a patient. */
  staffMayBook(): boolean {
    return this.staff.hasAnyRole(STAFF_BOOKING_ROLES);
  }

  /** Hands stores the router's navigation once it exists (single-page navigation). */
  attachNavigator(navigator: PortalNavigator): void {
    this.navigator = navigator;
  }
}
