import type { BootstrapConfig } from '@contract/api/config';
import { createAssetsApi, type AssetsApi } from '../api/assets-api';
import { createBookingApi, type BookingApi } from '../api/booking-api';
import type { ApiClient } from '../api/client';
import { createConfigApi, type ConfigApi } from '../api/config-api';
import { createBrowserLocator, randomUuid } from './booking-locator';
import { reportStepToWindow } from './booking-step-reporter';
import { BookingStore } from './booking-store';
import { ConfigStore } from './config-store';
import { ContentStore } from './content-store';
import { I18nStore } from './i18n-store';
import { SessionStore, type PortalNavigator } from './session-store';
import { UiStore } from './ui-store';

export interface RootStoreOptions {
  config: BootstrapConfig;
  client: ApiClient;
  window: Window;
  /** Injected so tests can fix the date (the footer's copyright year). */
  clock?: () => Date;
}

/** Owns every store and the typed API modules; components reach it through useStores(). */
export class RootStore {
  readonly api: { config: ConfigApi; assets: AssetsApi; booking: BookingApi };
  readonly config: ConfigStore;
  readonly ui: UiStore;
  readonly session: SessionStore;
  readonly i18n: I18nStore;
  readonly content: ContentStore;
  readonly booking: BookingStore;

  private navigator: PortalNavigator;

  constructor(options: RootStoreOptions) {
    const win = options.window;
    this.api = { config: createConfigApi(options.client), assets: createAssetsApi(options.client), booking: createBookingApi(options.client) };
    // Until the router exists, navigation is a full page load.
    this.navigator = {
      navigate: (to) => win.location.assign(to),
      currentUrl: () => `${win.location.pathname}${win.location.search}`,
    };
    this.config = new ConfigStore(options.config);
    this.ui = new UiStore(win, options.clock ?? (() => new Date()));
    this.session = new SessionStore(() => this.navigator);
    this.i18n = new I18nStore(options.config.app.locale, this.api.assets, win.document);
    this.content = new ContentStore(this.api.config);
    this.booking = new BookingStore({
      api: this.api.booking,
      clock: options.clock ?? (() => new Date()),
      flags: () => this.config.radiology,
      weekStart: () => this.i18n.weekStart,
      locator: createBrowserLocator(win, () => this.ui.kiosk),
      reportStep: reportStepToWindow(win),
      newIdempotencyKey: () => randomUuid(win.crypto),
    });
    options.client.setSessionHandlers({
      logout: () => this.session.logout(),
      reauthenticate: () => this.session.reauthenticate(),
    });
  }

  /** Hands stores the router's navigation once it exists (single-page navigation). */
  attachNavigator(navigator: PortalNavigator): void {
    this.navigator = navigator;
  }
}
