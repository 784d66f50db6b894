import { makeAutoObservable, runInAction } from 'mobx';
import type { Location } from '@contract/api/booking';
import type { BookingApi } from '../../api/booking-api';
import { ApiError } from '../../api/client';
import type { LoadState } from '../../platform/load-state';
import type { Locator, Position } from './booking-locator';

/** Who asked for the position: the step opening by itself, or the patient ("Use my location"). */
export type LocateRequest = 'quiet' | 'asked';

/**
 * Whether the unable-to-locate window may open (docs/rules/booking.md#location): only when the
 * patient asked for the browser's position, the browser failed, and the provider enables the
 * window. Opening the step never opens it, for patients, staff and embedded pages alike.
 */
export function unableToLocateMayOpen(request: LocateRequest, flags: { showUnableToLocateWindow: boolean }): boolean {
  return request === 'asked' && flags.showUnableToLocateWindow;
}

export interface BookingLocationDeps {
  api: Pick<BookingApi, 'postcode'>;
  locator: Locator;
  flags: () => { showUnableToLocateWindow: boolean };
  /** A new position (null: the provider's default region): the clinics are listed again from it. */
  positionChanged: () => Promise<void>;
}

/**
 * The patient's position for sorting clinics: the link's lat/lng, the kiosk's postcode, a browser
 * position the site may already read, or the one the patient asks for (the browser or a postcode).
 */
export class BookingLocation {
  queryPosition: Location | null = null;
  position: Position | null = null;
  locating = false;
  /** The patient asked for the browser's position and it failed (said inline when the window is off). */
  browserFailed = false;
  unableToLocateOpen = false;
  postcodeLocatorOpen = false;
  postcodeState: LoadState = 'idle';
  postcodeProblem: 'invalid' | 'unknown' | null = null;

  private readonly deps: BookingLocationDeps;

  constructor(deps: BookingLocationDeps) {
    this.deps = deps;
    makeAutoObservable<this, 'deps'>(this, { deps: false });
  }

  /**
   * The position without asking anyone, in the spec's order: query lat/lng, the kiosk's postcode,
   * then the browser's position only when the site may already read it (no prompt). Otherwise
   * the clinics are sorted from the provider's default region, quietly: no window, no prompt.
   */
  async locate(): Promise<void> {
    if (this.queryPosition) return this.usePosition({ ...this.queryPosition, source: 'query' });
    const kioskPostcode = this.deps.locator.kioskPostcode();
    if (kioskPostcode) {
      try {
        const found = await this.deps.api.postcode(kioskPostcode);
        return await this.usePosition({ latitude: found.latitude, longitude: found.longitude, source: 'kiosk' });
      } catch {
        // fall through: the default region
      }
    }
    if ((await this.deps.locator.browserPermission()) === 'granted' && (await this.askBrowser('quiet'))) return;
    await this.deps.positionChanged();
  }

  /** "Use my location": asks the browser; when that fails the unable-to-locate window offers the postcode. */
  async useBrowserLocation(): Promise<void> {
    this.queryPosition = null;
    await this.askBrowser('asked');
  }

  private async askBrowser(request: LocateRequest): Promise<boolean> {
    this.unableToLocateOpen = false;
    this.browserFailed = false;
    this.locating = true;
    try {
      const browser = await this.deps.locator.browserPosition();
      runInAction(() => {
        this.locating = false;
      });
      await this.usePosition({ ...browser, source: 'browser' });
      return true;
    } catch {
      runInAction(() => {
        this.locating = false;
        this.browserFailed = request === 'asked';
        this.unableToLocateOpen = unableToLocateMayOpen(request, this.deps.flags());
      });
      return false;
    }
  }

  async usePosition(position: Position): Promise<void> {
    this.position = position;
    await this.deps.positionChanged();
  }

  openPostcodeLocator(): void {
    this.unableToLocateOpen = false;
    this.postcodeLocatorOpen = true;
    this.postcodeProblem = null;
  }

  closePostcodeLocator(): void {
    this.postcodeLocatorOpen = false;
  }

  closeUnableToLocate(): void {
    this.unableToLocateOpen = false;
  }

  /** The postcode locator: a 4-digit postcode becomes the position. */
  async locatePostcode(postcode: string): Promise<boolean> {
    const code = postcode.trim();
    if (!/^\d{4}$/.test(code)) {
      this.postcodeProblem = 'invalid';
      return false;
    }
    this.postcodeState = 'loading';
    this.postcodeProblem = null;
    try {
      const found = await this.deps.api.postcode(code);
      this.deps.locator.rememberKioskPostcode(code);
      runInAction(() => {
        this.postcodeState = 'loaded';
        this.postcodeLocatorOpen = false;
        this.browserFailed = false;
      });
      await this.usePosition({ latitude: found.latitude, longitude: found.longitude, source: 'postcode' });
      return true;
    } catch (error) {
      runInAction(() => {
        this.postcodeState = 'error';
        this.postcodeProblem = error instanceof ApiError && error.status === 404 ? 'unknown' : 'invalid';
      });
      return false;
    }
  }
}
