/** What other modules may use of availability: the store of free times and the index it answers. */
export { AvailabilityStore } from './availability-store';
export type { AvailabilityIndex, BusyEntry } from './availability-index';
