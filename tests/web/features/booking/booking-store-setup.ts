import { createBookingApi } from '../../../../src-web/api/booking-api';
import { createApiClient } from '../../../../src-web/api/client';
import { randomUuid } from '../../../../src-web/platform/uuid';
import { BookingStore, type BookingStoreDeps, type Locator } from '../../../../src-web/features/booking/booking-store';
import { startApiServer } from '../../helpers/api-server';
import { bookingRoutes, holdReleaseRoutes, type BookingRoutesOptions, type RecordedBookingRequest } from './booking-fixtures';

/** A BookingStore on the fixture API (booking-fixtures.ts), for the store's tests. */

export const NOW = new Date('2026-11-23T01:00:00.000Z'); // Monday 23 November, local noon in Sydney

export const refusingLocator: Locator = {
  browserPosition: () => Promise.reject(new Error('denied')),
  browserPermission: () => Promise.resolve('prompt'),
  kioskPostcode: () => null,
  rememberKioskPostcode: () => undefined,
};

export interface Setup {
  store: BookingStore;
  log: RecordedBookingRequest[];
  reported: number[];
}

export async function setup(
  options: BookingRoutesOptions & {
    deps?: Partial<BookingStoreDeps>;
    flags?: Partial<ReturnType<BookingStoreDeps['flags']>>;
    /** Leave start() to the test, as the page does on a reload. */
    notStarted?: boolean;
  } = {},
): Promise<Setup> {
  const log: RecordedBookingRequest[] = [];
  const server = await startApiServer({ ...bookingRoutes(log, options), ...holdReleaseRoutes(log) });
  const reported: number[] = [];
  const store = new BookingStore({
    api: createBookingApi(createApiClient(server.url)),
    clock: () => NOW,
    flags: () => ({ mapUiEnabled: true, showUnableToLocateWindow: true, weekStartsTodayEnabled: false, ...options.flags }),
    weekStart: () => 1,
    locator: refusingLocator,
    reportStep: (step) => reported.push(step),
    newIdempotencyKey: () => randomUuid(crypto),
    stepReportDelayMs: 10,
    ...options.deps,
  });
  if (options.notStarted !== true) await store.start(new URLSearchParams());
  return { store, log, reported };
}
