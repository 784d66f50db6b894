import { HOLD_EXPIRED_MESSAGE, SLOT_TAKEN_MESSAGE } from '@contract/api/booking';
import type { Database, Queryable } from '../../db/connection';
import { DEADLOCK_DETECTED, EXCLUSION_VIOLATION, sqlState } from '../../db/sql';
import type { Clock } from '../../platform/clock';
import { appError, type AppError } from '../../platform/errors';
import { localDate } from '../../platform/time-zone';
import { availabilityVersion, type AvailabilityIndex, type AvailabilityStore, type BusyEntry } from '../availability/public';
import type { BookingRepository, ClinicRow, HeldRow, NewSlotRow, WrittenRow } from './repository';
import { freshSlots, MINUTE, notOffered } from './slots';

/**
 * Every write that takes a time (a hold, a booking, a reschedule) goes through bookOnFirstFree:
 * it tries each free resource in turn, each in its own transaction, and lets the exclusion
 * constraint on appointment decide races. The in-memory index is updated only after a commit.
 */

/** Attempts per resource when PostgreSQL picks this transaction as a deadlock victim. */
const DEADLOCK_RETRIES = 3;

/** The time being taken: which clinic, modality and span, as of `now`. */
export interface Placement {
  clinic: ClinicRow;
  modalityId: string;
  durationMinutes: number;
  start: number;
  now: Date;
}

/** What one attempt writes on a resource, inside its transaction. */
export interface AttemptSteps<T> {
  /**
   * Runs first (for a reschedule: lock and move the old appointments); answers appointment ids freed and hold rows deleted.
   * `movedInPlace`: the freed ids are the rows `insert` rewrites at their new time (one statement, one availability change).
   */
  prepare?(tx: Queryable, resourceId: string): Promise<{ freed: readonly string[]; released: readonly string[]; movedInPlace?: boolean }>;
  /** Inserts the rows on the resource (after expired holds in the span were deleted) and whatever else belongs to the write. */
  insert(tx: Queryable, resourceId: string): Promise<{ rows: WrittenRow[]; result: T }>;
}

/** How a stored hold relates to a booking: none live, live but for something else, or live on exactly these times. */
export type HoldMatch = { kind: 'none' } | { kind: 'mismatch' } | { kind: 'match'; resourceId: string };

/**
 * The hold check: a hold matches when it is live and holds exactly these exams at these times at
 * this clinic on one resource.
 */
export function matchHold(held: readonly HeldRow[], clinicId: string, slots: readonly NewSlotRow[], nowMs: number): HoldMatch {
  if (held.length === 0 || held.some((row) => row.expires_ms <= nowMs)) return { kind: 'none' };
  const resourceId = held[0]?.resource_id ?? '';
  const matches =
    held.length === slots.length &&
    held.every(
      (row, position) =>
        row.clinic_id === clinicId &&
        row.resource_id === resourceId &&
        row.exam_id === slots[position]?.examId &&
        row.starts_ms === slots[position]?.start.getTime() &&
        row.ends_ms === slots[position]?.end.getTime(),
    );
  return matches ? { kind: 'match', resourceId } : { kind: 'mismatch' };
}

/** Written rows as the availability index holds them. */
export function busyEntries(rows: readonly WrittenRow[], holdExpiresAt: number | null): BusyEntry[] {
  return rows.map((row) => ({ id: row.id, resourceId: row.resource_id, start: row.starts_ms, end: row.ends_ms, holdExpiresAt }));
}

export async function retryOnDeadlock<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      if (sqlState(error) !== DEADLOCK_DETECTED || attempt >= DEADLOCK_RETRIES) throw error;
    }
  }
}

export function createResourceBooker(deps: { db: Database; repository: BookingRepository; store: AvailabilityStore; clock: Clock }) {
  const { db, repository, store, clock } = deps;

  /** 409 slot_taken (or hold_expired) with fresh times; the winner may be another process, so the index catches up first. */
  async function slotTaken(placement: Placement, expiredHold = false): Promise<AppError> {
    const { clinic, modalityId, durationMinutes, start } = placement;
    const index = await store.fresh();
    const from = localDate(new Date(start), clinic.time_zone);
    return appError(expiredHold ? 'hold_expired' : 'slot_taken', 409, expiredHold ? HOLD_EXPIRED_MESSAGE : SLOT_TAKEN_MESSAGE, {
      freshSlots: freshSlots(index, clinic, modalityId, durationMinutes, from, clock.now().getTime()),
    });
  }

  /**
   * Runs `write` on each candidate resource in turn, each in its own transaction, until one
   * commits; an exclusion violation means that resource went to someone else. Answers null when
   * every candidate was taken.
   */
  async function onFirstFreeResource<T>(
    resourceIds: readonly string[],
    write: (tx: Queryable, resourceId: string) => Promise<T>,
  ): Promise<T | null> {
    for (const resourceId of resourceIds) {
      for (let attempt = 1; ; attempt++) {
        try {
          return await db.transaction((tx) => write(tx, resourceId));
        } catch (error) {
          const state = sqlState(error);
          if (state === EXCLUSION_VIOLATION) break;
          // Two inserts of conflicting rows can each wait for the other inside the exclusion
          // check; PostgreSQL aborts one as a deadlock. Its rival may yet roll back, so try again.
          if (state === DEADLOCK_DETECTED && attempt < DEADLOCK_RETRIES) continue;
          if (state === DEADLOCK_DETECTED) break;
          throw error;
        }
      }
    }
    return null;
  }

  return {
    slotTaken,

    /** The resources able to take the placement that are free in the index; 400 when the time is not offered at all. */
    freeResources(index: AvailabilityIndex, placement: Placement): string[] {
      const { clinic, modalityId, durationMinutes, start, now } = placement;
      const candidates = index.candidates(clinic.id, modalityId, durationMinutes, start, now.getTime());
      if (candidates.scheduled.length === 0) throw notOffered();
      return candidates.free;
    },

    /**
     * Books on the first of `resources` that takes it. Per attempt, in ONE transaction:
     * `prepare`, deleting expired holds in the span, `insert`; when the exclusion constraint
     * refuses the insert everything rolls back and the next resource is tried. Throws slot_taken
     * (hold_expired with `expiredHold`) with fresh times when every resource was taken.
     * `holdExpiresAt` marks the rows as a hold in the index.
     */
    async bookOnFirstFree<T>(
      placement: Placement,
      resources: readonly string[],
      steps: AttemptSteps<T>,
      options: { holdExpiresAt?: number; expiredHold?: boolean } = {},
    ): Promise<T> {
      const { start, durationMinutes, now } = placement;
      const end = start + durationMinutes * MINUTE;
      let written;
      try {
        written = await onFirstFreeResource(resources, async (tx, resourceId) => {
          const before: { freed: readonly string[]; released: readonly string[]; movedInPlace?: boolean } =
            steps.prepare === undefined ? { freed: [], released: [] } : await steps.prepare(tx, resourceId);
          const holds = [...before.released, ...(await repository.deleteExpiredHolds(resourceId, new Date(start), new Date(end), now, tx))];
          const { rows, result } = await steps.insert(tx, resourceId);
          const bumps = 1 + (holds.length > 0 ? 1 : 0) + (before.freed.length > 0 && before.movedInPlace !== true ? 1 : 0);
          return {
            rows,
            result,
            removed: [...holds, ...before.freed],
            written: { version: await availabilityVersion(tx), bumps },
          };
        });
      } catch (error) {
        // Still a deadlock victim after the retries: someone else is taking this time.
        if (sqlState(error) === DEADLOCK_DETECTED) throw await slotTaken(placement, options.expiredHold);
        throw error;
      }
      if (written === null) throw await slotTaken(placement, options.expiredHold);
      store.applyCommitted(busyEntries(written.rows, options.holdExpiresAt ?? null), written.removed, written.written);
      return written.result;
    },
  };
}

export type ResourceBooker = ReturnType<typeof createResourceBooker>;
