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

  /**
   * Holds the exams' time at the clinic for `minutes` on the first free resource; `admit` counts
   * the hold against a client's limits once the request is known to be valid (a typo costs the
   * patient nothing). Throws slot_taken when no resource takes it.
   */
  async function hold(request: HoldRequest, minutes: (settings: { hold_minutes: number }) => number, admit?: () => Promise<void>) {
    const { catalogue: cached, index } = await catalogue.load();
    const { exams, modalityId, durationMinutes } = bookableExams(cached, request.exams);
    const clinic = clinicBySlug(cached, request.clinicSlug);
    await admit?.();
    const placement = { clinic, modalityId, durationMinutes, start: parseInstant(request.startsAt), now: clock.now() };
    const free = booker.freeResources(index, placement);
    const holdId = randomToken();
    const expiresAt = new Date(placement.now.getTime() + minutes(await store.settings()) * MINUTE);
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
  }

  return {
    createHold: (request: HoldRequest, client: BookingClient): Promise<HoldResponse> =>
      hold(
        request,
        (settings) => settings.hold_minutes,
        () => limiter.admitHold(client),
      ),

    /**
     * Holds a freed time for a waitlist offer (docs/rules/waitlist.md) for `minutes`, without the
     * limits of a patient's browser: the portal holds it, not a client.
     */
    holdForOffer: (request: HoldRequest, minutes: number): Promise<HoldResponse> => hold(request, () => minutes),

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
