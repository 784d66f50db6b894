import type { Queryable } from '../../db/connection';
import { createAvailabilityRepository } from './repository';

import type { AvailabilityStore } from './availability-store';

/** What other modules may use of availability: the store of free times, the index it answers, and the change counter. */
export { AvailabilityStore } from './availability-store';

declare module 'fastify' {
  interface FastifyInstance {
    /** The process's availability index (the booking module builds and keeps it current). */
    readonly availabilityStore: AvailabilityStore;
  }
}
export type { AvailabilityIndex, BusyEntry } from './availability-index';

/** The availability counter as this transaction left it (its own bumps included, row-locked by them). */
export function availabilityVersion(tx: Queryable): Promise<number> {
  return createAvailabilityRepository(tx).version();
}
