import type { HoldRequest, HoldResponse } from '@contract/api/booking';
import type { Database } from '../../db/connection';
import type { Clock } from '../../platform/clock';
import { randomToken } from '../../platform/ids';
import { availabilityVersion, type AvailabilityStore } from '../availability/public';
import type { BookingClient, BookingLimiter } from './booking-limits';
import { bookableExams, clinicBySlug, type Catalogue } from './catalogue';
import type { ResourceBooker } from './first-free-resource';
import type { BookingRepository } from './repository';
import { consecutive, MINUTE, parseInstant } from './slots';

/** Holds: a time kept for a few minutes while the patient fills in the form, then released, booked or swept. */

export interface HoldsDeps {
  db: Database;
  repository: BookingRepository;
  store: AvailabilityStore;
  clock: Clock;
  catalogue: Catalogue;
  booker: ResourceBooker;
  limiter: BookingLimiter;
}

export function createHolds(deps: HoldsDeps) {
  const { db, repository, store, clock, catalogue, booker, limiter } = deps;

  return {
    async createHold(request: HoldRequest, client: BookingClient): Promise<HoldResponse> {
      const { catalogue: cached, index } = await catalogue.load();
      const { exams, modalityId, durationMinutes } = bookableExams(cached, request.exams);
      const clinic = clinicBySlug(cached, request.clinicSlug);
      // Counted once the request is known to be valid: a typo costs the patient nothing.
      await limiter.admitHold(client);
      const placement = { clinic, modalityId, durationMinutes, start: parseInstant(request.startsAt), now: clock.now() };
      const free = booker.freeResources(index, placement);
      const settings = await store.settings();
      const holdId = randomToken();
      const expiresAt = new Date(placement.now.getTime() + settings.hold_minutes * MINUTE);
      const slots = consecutive(exams, placement.start);
      await booker.bookOnFirstFree(
        placement,
        free,
        {
          insert: async (tx, resourceId) => ({
            rows: await repository.insertHeld({ holdId, clinicId: clinic.id, resourceId, expiresAt, slots }, tx),
            result: undefined,
          }),
        },
        { holdExpiresAt: expiresAt.getTime() },
      );
      return { holdId, expiresAt: expiresAt.toISOString() };
    },

    async releaseHold(holdId: string): Promise<void> {
      const { removed, version } = await db.transaction(async (tx) => {
        const ids = await repository.deleteHold(holdId, tx);
        return { removed: ids, version: await availabilityVersion(tx) };
      });
      store.applyCommitted([], removed, removed.length > 0 ? { version, bumps: 1 } : undefined);
    },

    /**
     * Deletes expired holds. Bookings clear expired holds in their own range anyway; the sweep
     * keeps them from piling up and from blocking writers that do not know about holds.
     */
    async sweepExpiredHolds(): Promise<number> {
      const removed = await db.transaction((tx) => repository.deleteAllExpiredHolds(clock.now(), tx));
      store.applyCommitted([], removed);
      return removed.length;
    },
  };
}
