import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Location } from '@contract/api/booking';
import { createBookingApi } from '../../../../src-web/api/booking-api';
import { createApiClient } from '../../../../src-web/api/client';
import { BookingLocation, unableToLocateMayOpen, type LocateRequest } from '../../../../src-web/features/booking/booking-location';
import { createBrowserLocator, type Locator } from '../../../../src-web/features/booking/booking-locator';
import { closeApiServers, startApiServer } from '../../helpers/api-server';
import { bookingRoutes, type RecordedBookingRequest } from './booking-fixtures';

/** When the location is asked for, and when the unable-to-locate window may open (docs/rules/booking.md#location). */

const HERE: Location = { latitude: -33.87, longitude: 151.21 };

afterEach(async () => {
  await closeApiServers();
});

function locator(options: { permission?: PermissionState | 'unknown'; position?: Location | null; kioskPostcode?: string | null } = {}) {
  const browserPosition = vi.fn(() => (options.position ? Promise.resolve(options.position) : Promise.reject(new Error('denied'))));
  const value: Locator = {
    browserPosition,
    browserPermission: () => Promise.resolve(options.permission ?? 'prompt'),
    kioskPostcode: () => options.kioskPostcode ?? null,
    rememberKioskPostcode: () => undefined,
  };
  return { value, browserPosition };
}

async function setup(found: Locator, showUnableToLocateWindow = true) {
  const log: RecordedBookingRequest[] = [];
  const server = await startApiServer(bookingRoutes(log));
  const positionChanged = vi.fn(() => Promise.resolve());
  const location = new BookingLocation({
    api: createBookingApi(createApiClient(server.url)),
    locator: found,
    flags: () => ({ showUnableToLocateWindow }),
    positionChanged,
  });
  return { location, positionChanged, log };
}

describe('unableToLocateMayOpen', () => {
  it.each<[LocateRequest, boolean, boolean]>([
    ['quiet', true, false],
    ['quiet', false, false],
    ['asked', true, true],
    ['asked', false, false],
  ])('a %s request with the window enabled=%s may open it: %s', (request, enabled, expected) => {
    expect(unableToLocateMayOpen(request, { showUnableToLocateWindow: enabled })).toBe(expected);
  });
});

describe('BookingLocation', () => {
  it('sorts from the default region without asking the browser when the site may not read the position', async () => {
    for (const permission of ['prompt', 'denied', 'unknown'] as const) {
      const { value, browserPosition } = locator({ permission, position: HERE });
      const { location, positionChanged } = await setup(value);
      await location.locate();
      expect(browserPosition, permission).not.toHaveBeenCalled();
      expect(location.position, permission).toBeNull();
      expect(location.unableToLocateOpen, permission).toBe(false);
      expect(positionChanged, permission).toHaveBeenCalledTimes(1);
    }
  });

  it('uses a position the site may already read, and stays quiet when it fails', async () => {
    const granted = locator({ permission: 'granted', position: HERE });
    const first = await setup(granted.value);
    await first.location.locate();
    expect(first.location.position).toEqual({ ...HERE, source: 'browser' });

    const failing = locator({ permission: 'granted', position: null });
    const second = await setup(failing.value);
    await second.location.locate();
    expect(failing.browserPosition).toHaveBeenCalledTimes(1);
    expect(second.location.position).toBeNull();
    expect(second.location.unableToLocateOpen).toBe(false);
    expect(second.location.browserFailed).toBe(false);
    expect(second.positionChanged).toHaveBeenCalledTimes(1);
  });

  it('takes the link position first, then the kiosk postcode, before the browser', async () => {
    const granted = locator({ permission: 'granted', position: HERE, kioskPostcode: '2150' });
    const { location, log } = await setup(granted.value);
    location.queryPosition = { latitude: -33.5, longitude: 151.3 };
    await location.locate();
    expect(location.position?.source).toBe('query');
    location.queryPosition = null;
    await location.locate();
    expect(location.position).toEqual({ latitude: -33.81, longitude: 151.0, source: 'kiosk' });
    expect(log.some((request) => request.path === '/api/booking/postcodes/2150')).toBe(true);
    expect(granted.browserPosition).not.toHaveBeenCalled();
  });

  it('opens the window only when "Use my location" fails, and it leads to the postcode', async () => {
    const { value, browserPosition } = locator({ position: null });
    const { location } = await setup(value);
    await location.locate();
    expect(location.unableToLocateOpen).toBe(false);
    await location.useBrowserLocation();
    expect(browserPosition).toHaveBeenCalledTimes(1);
    expect(location.unableToLocateOpen).toBe(true);
    location.openPostcodeLocator();
    expect(location.unableToLocateOpen).toBe(false);
    expect(location.postcodeLocatorOpen).toBe(true);
    expect(await location.locatePostcode('2150')).toBe(true);
    expect(location.position?.source).toBe('postcode');
    expect(location.browserFailed).toBe(false);
  });

  it('says the failure in the page instead when the provider turned the window off', async () => {
    const { value } = locator({ position: null });
    const { location } = await setup(value, false);
    await location.useBrowserLocation();
    expect(location.unableToLocateOpen).toBe(false);
    expect(location.browserFailed).toBe(true);
  });

  it('uses the position when "Use my location" succeeds, and forgets the link position', async () => {
    const { value } = locator({ position: HERE });
    const { location, positionChanged } = await setup(value);
    location.queryPosition = { latitude: -33.5, longitude: 151.3 };
    await location.useBrowserLocation();
    expect(location.position).toEqual({ ...HERE, source: 'browser' });
    expect(location.queryPosition).toBeNull();
    expect(positionChanged).toHaveBeenCalledTimes(1);
  });
});

describe('createBrowserLocator', () => {
  it('answers the geolocation permission without prompting, and unknown where the browser cannot tell', async () => {
    expect(await createBrowserLocator(window, () => false).browserPermission()).toBe('unknown');
    const query = vi.fn(() => Promise.resolve({ state: 'granted' }));
    const withPermissions = { ...window, navigator: { ...window.navigator, permissions: { query } } } as unknown as Window;
    expect(await createBrowserLocator(withPermissions, () => false).browserPermission()).toBe('granted');
    expect(query).toHaveBeenCalledWith({ name: 'geolocation' });
  });
});
