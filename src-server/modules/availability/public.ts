import type { Queryable } from '../../db/connection';
import { createAvailabilityRepository } from './repository';

/** What other modules may use of availability: the store of free times, the index it answers, and the change counter. */
export { AvailabilityStore } from './availability-store';
export type { AvailabilityIndex, BusyEntry } from './availability-index';

/** The availability counter as this transaction left it (its own bumps included, row-locked by them). */
export function availabilityVersion(tx: Queryable): Promise<number> {
  return createAvailabilityRepository(tx).version();
}
